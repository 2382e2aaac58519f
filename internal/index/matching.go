package index

import (
	"context"

	"github.com/blevesearch/bleve/v2"

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
	n, err := x.bi.DocCount()
	if err != nil {
		return nil, err
	}
	sreq := bleve.NewSearchRequestOptions(c.withDates(withFilter(q, c.filters(req))), int(n)+1, 0, false)
	sreq.Score = "none"
	res, err := x.bi.SearchInContext(ctx, sreq)
	if err != nil {
		return nil, searchError(ctx, err)
	}
	paths := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		paths[i] = h.ID
	}
	return paths, nil
}
