package index

import (
	"context"
	"fmt"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"
)

// matchingPaths returns the paths of every note q matches, in no order.
// Bleve's hits would carry their paths, but it reads each hit's id from
// its stored fields: for a query that most notes match, that pages in the
// stored bodies of all of them. The paths come from the doc values of
// fieldPathSort instead, as bleve finds the notes, and bleve collects
// nothing. The caller holds x.mu.
func (x *Index) matchingPaths(ctx context.Context, q query.Query) ([]string, error) {
	pq := &pathsQuery{Query: q}
	sreq := bleve.NewSearchRequestOptions(pq, 0, 0, false)
	sreq.Score = "none"
	res, err := x.bi.SearchInContext(ctx, sreq)
	if err != nil {
		return nil, searchError(ctx, err)
	}
	if pq.err != nil {
		return nil, pq.err
	}
	if uint64(len(pq.paths)) != res.Total {
		return nil, fmt.Errorf("search: %d notes matched, %d paths read", res.Total, len(pq.paths))
	}
	return pq.paths, nil
}

// pathsQuery is a query that records the path of each note it matches
// (see matchingPaths).
type pathsQuery struct {
	query.Query
	paths []string
	err   error
}

// Searcher implements query.Query.
func (q *pathsQuery) Searcher(ctx context.Context, i index.IndexReader, m mapping.IndexMapping, opts search.SearcherOptions) (search.Searcher, error) {
	s, err := q.Query.Searcher(ctx, i, m, opts)
	if err != nil {
		return nil, err
	}
	dv, err := i.DocValueReader([]string{fieldPathSort})
	if err != nil {
		s.Close()
		return nil, err
	}
	return searcher.NewFilteringSearcher(ctx, s, func(_ *search.SearchContext, d *search.DocumentMatch) bool {
		err := dv.VisitDocValues(d.IndexInternalID, func(_ string, term []byte) {
			q.paths = append(q.paths, string(term))
		})
		if err != nil && q.err == nil {
			q.err = err
		}
		return true
	}), nil
}
