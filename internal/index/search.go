package index

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/wikid/wikid/internal/wiki"
)

// Page sizes of a search.
const (
	defaultLimit = 10
	maxLimit     = 100
)

// Search runs a query with its structured filters (all combined with AND)
// and returns one page of hits in the requested order, with up to three
// snippets per hit when asked. A limit of 0 means 10; more than 100 means
// 100. It returns an error wrapping wiki.ErrInvalidQuery when the query
// cannot be compiled, wiki.ErrInvalidParams for a negative limit, an
// unknown sort or a bad cursor (or one made for another sort), ErrClosed
// after Close, and the context's error when it is done.
func (x *Index) Search(ctx context.Context, req wiki.SearchRequest) (_ *wiki.SearchResult, err error) {
	defer x.guard(&err)
	defer faultGuard()()
	mode, err := parseSort(req.Sort)
	if err != nil {
		return nil, err
	}
	limit := req.Limit
	switch {
	case limit < 0:
		return nil, wiki.Errorf(wiki.CodeInvalidParams, "limit %d is negative", limit).
			WithHint("use a limit from 1 to %d, or omit it for %d", maxLimit, defaultLimit)
	case limit == 0:
		limit = defaultLimit
	case limit > maxLimit:
		limit = maxLimit
	}
	var cur *cursor
	if req.Cursor != "" {
		if cur, err = decodeCursor(req.Cursor, mode); err != nil {
			return nil, err
		}
	}

	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.bi == nil {
		return nil, ErrClosed
	}
	c := &compiler{bi: x.bi, im: x.im, linked: req.Linked, dates: req.GitDates, tables: &x.dates, common: x.common.get(), langs: x.langs.get()}
	if req.Snippets > 0 {
		c.hl = newHighlighter()
	}
	q, err := c.compile(ctx, req.Query)
	if err != nil {
		return nil, err
	}
	filter := c.filters(req)
	order := c.sorting(mode)

	ask := (*question)(nil)
	if mode == sortRelevance {
		ask = c.askQuestion(req.Query)
	}
	fields := []string{fieldTitle, fieldTagNames, fieldModStamp}
	if req.Snippets > 0 {
		fields = append(fields, fieldBody, fieldBodyLine, fieldLang)
	}
	if cur != nil && cur.Question {
		if ask == nil {
			return nil, badCursor("it belongs to a question, and this query is none")
		}
		strict, _, err := x.top(ctx, c.withDates(withFilter(q, filter)), order, nil, questionDepth, nil)
		if err != nil {
			return nil, err
		}
		return x.questionPage(ctx, c, ask, strict, filter, cur.Offset, limit, req.Snippets, fields)
	}

	var after []string
	if cur != nil {
		after = cur.After
		if mode == sortRelevance {
			if after, err = x.rescore(ctx, q, filter, after); err != nil {
				return nil, err
			}
		}
	}
	hits, total, err := x.top(ctx, c.withDates(withFilter(q, filter)), order, after, limit, fields)
	if err != nil {
		return nil, err
	}
	if ask != nil && cur == nil && int(total) < limit {
		return x.questionPage(ctx, c, ask, hits, filter, 0, limit, req.Snippets, fields)
	}

	out := &wiki.SearchResult{Total: int(total), Results: make([]wiki.SearchHit, 0, min(limit, len(hits)))}
	for i, h := range hits {
		if i == limit {
			out.NextCursor = cursorAfter(mode, hits[i-1])
			break
		}
		out.Results = append(out.Results, hit(h, req.GitDates))
	}
	if req.Snippets > 0 {
		addSnippets(c, hits[:len(out.Results)], out.Results, req.Snippets)
	}
	return out, nil
}

// addSnippets fills in the snippets of a page of hits from their stored
// bodies, at most n per hit, marking the words that compile gathered into
// c.hl.
func addSnippets(c *compiler, page []*search.DocumentMatch, hits []wiki.SearchHit, n int) {
	h := c.hl
	if h.empty() {
		return
	}
	h.needles = h.foldedWords()
	for i, m := range page {
		line, _ := strconv.Atoi(firstString(m.Fields[fieldBodyLine]))
		body := firstString(m.Fields[fieldBody])
		lang := firstString(m.Fields[fieldLang])
		hits[i].Snippets = snippets(body, line, hits[i].Title, c.locate(h, body, lang), n)
	}
}

// hit turns a bleve hit into a search hit, without snippets, modified
// the frontmatter's date, else git's as dates gives it.
func hit(h *search.DocumentMatch, dates wiki.GitDates) wiki.SearchHit {
	out := wiki.SearchHit{
		Path:  h.ID,
		Title: firstString(h.Fields[fieldTitle]),
		Tags:  storedStrings(h.Fields[fieldTagNames]),
		Score: h.Score,
	}
	if out.Tags == nil {
		out.Tags = []string{}
	}
	if t, err := time.Parse(time.RFC3339Nano, firstString(h.Fields[fieldModStamp])); err == nil {
		out.Modified = t
	} else {
		out.Modified = dates[h.ID].Modified
	}
	return out
}

// filters returns the structured filters of a request as one query, or nil
// when there are none. Filters select notes without changing their scores.
func (c *compiler) filters(req wiki.SearchRequest) query.Query {
	var qs []query.Query
	for _, t := range req.Tags {
		if t = normTag(t); t != "" {
			qs = append(qs, c.keyword(fieldTags, t, false))
		}
	}
	if f := strings.Trim(strings.TrimSpace(req.Folder), "/"); f != "" {
		qs = append(qs, c.keyword(fieldFolders, f, false))
	}
	if req.Paths != nil {
		qs = append(qs, notes(req.Paths))
	}
	if p := normPath(req.BacklinksTo); p != "" && c.linked != nil {
		qs = append(qs, notes(c.linked[wiki.BacklinksTerm(req.BacklinksTo)]))
	} else if p != "" {
		qs = append(qs, c.keyword(fieldLinks, p, false))
	}
	if !req.ModifiedSince.IsZero() {
		qs = append(qs, c.dateTerm(modifiedDate, req.ModifiedSince, time.Time{}))
	}
	switch len(qs) {
	case 0:
		return nil
	case 1:
		return qs[0]
	default:
		return query.NewConjunctionQuery(qs)
	}
}

// withFilter returns q restricted to the notes that match filter, which
// does not take part in scoring: a note scores the same with or without a
// filter, which is what rescore relies on.
func withFilter(q, filter query.Query) query.Query {
	return &query.BooleanQuery{Must: must(q), Filter: filter}
}

// must wraps q for the must clause of a boolean query. Bleve drops a must
// clause that matches nothing and would then match every note; a
// conjunction around it is never dropped.
func must(q query.Query) query.Query {
	return query.NewConjunctionQuery([]query.Query{q})
}

// rescore returns the SearchAfter key of a relevance cursor for the index
// as it is now. A score depends on the whole index (BM25 weighs a term by
// how many notes hold it), so the score recorded in the cursor is stale as
// soon as a note is added or removed; the note the cursor points at is
// scored again instead. If it no longer matches, the recorded score
// stands.
func (x *Index) rescore(ctx context.Context, q, filter query.Query, after []string) ([]string, error) {
	anchor := query.Query(query.NewDocIDQuery([]string{after[1]}))
	if filter != nil {
		anchor = query.NewConjunctionQuery([]query.Query{filter, anchor})
	}
	req := bleve.NewSearchRequestOptions(withFilter(q, anchor), 1, 0, false)
	res, err := x.bi.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("search: rescore cursor: %w", err)
	}
	if len(res.Hits) == 0 {
		return after, nil
	}
	return []string{strconv.FormatFloat(res.Hits[0].Score, 'g', -1, 64), after[1]}, nil
}

// firstString returns the first value of a stored field, or "".
func firstString(v any) string {
	if s := storedStrings(v); len(s) > 0 {
		return s[0]
	}
	return ""
}
