package index

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/wikid/wikid/internal/wiki"
)

// allTerms is a facet size larger than any tag vocabulary.
const allTerms = 1 << 30

// Tags counts the notes per tag: a nested tag counts for each of its
// ancestors too ("project/alpha" counts for "project"). Tags compare
// without case; each is reported in its most common spelling. Prefix keeps
// the tags that start with it (case-insensitive, a leading '#' ignored);
// Folder counts only the notes under that folder. The result is sorted by
// count, highest first, then by tag. It returns ErrClosed after Close and
// the context's error when it is done.
func (x *Index) Tags(ctx context.Context, req wiki.TagsRequest) ([]wiki.TagCount, error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.bi == nil {
		return nil, ErrClosed
	}
	c := &compiler{ctx: ctx, bi: x.bi, im: x.im}
	var q query.Query = query.NewMatchAllQuery()
	if f := strings.Trim(strings.TrimSpace(req.Folder), "/"); f != "" {
		q = c.keyword(fieldFolders, f, false)
	}
	sreq := bleve.NewSearchRequestOptions(q, 0, 0, false)
	sreq.AddFacet(fieldTags, bleve.NewFacetRequest(fieldTags, allTerms))
	sreq.AddFacet(fieldTagsExact, bleve.NewFacetRequest(fieldTagsExact, allTerms))
	res, err := x.bi.SearchInContext(ctx, sreq)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("count tags: %w", err)
	}

	prefix := strings.TrimLeft(strings.TrimSpace(req.Prefix), "#")
	if prefix != "" {
		prefix = c.key(prefix)
	}
	// The most common spelling of each tag, by its lowercased key.
	type spelling struct {
		text  string
		count int
	}
	spell := map[string]spelling{}
	if f := res.Facets[fieldTagsExact]; f != nil && f.Terms != nil {
		for _, t := range f.Terms.Terms() {
			key := c.key(t.Term)
			s, ok := spell[key]
			if !ok || t.Count > s.count || (t.Count == s.count && t.Term < s.text) {
				spell[key] = spelling{t.Term, t.Count}
			}
		}
	}
	out := []wiki.TagCount{}
	keys := map[string]string{} // display name to key, for sorting
	if f := res.Facets[fieldTags]; f != nil && f.Terms != nil {
		for _, t := range f.Terms.Terms() {
			if !strings.HasPrefix(t.Term, prefix) {
				continue
			}
			name := t.Term
			if s, ok := spell[t.Term]; ok {
				name = s.text
			}
			keys[name] = t.Term
			out = append(out, wiki.TagCount{Tag: name, Count: t.Count})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return keys[out[i].Tag] < keys[out[j].Tag]
	})
	return out, nil
}
