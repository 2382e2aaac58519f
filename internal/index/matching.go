package index

import (
	"context"

	"github.com/wikid/wikid/internal/wiki"
)

// Matching returns the paths of the notes that match a request's query and
// filters, unranked and in no order; its sort, limit, cursor and snippets
// are ignored. It returns the errors of Search.
func (x *Index) Matching(ctx context.Context, req wiki.SearchRequest) (_ []string, err error) {
	defer x.guard(&err)
	defer faultGuard()()
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.bi == nil {
		return nil, ErrClosed
	}
	c := &compiler{bi: x.bi, im: x.im, linked: req.Linked, dates: req.GitDates, tables: &x.dates, common: x.common.get(), langs: x.langs.get()}
	q, err := c.compile(ctx, req.Query)
	if err != nil {
		return nil, err
	}
	return x.matchingPaths(ctx, c.withDates(withFilter(q, c.filters(req))))
}
