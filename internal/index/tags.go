package index

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/blevesearch/bleve/v2"
	index "github.com/blevesearch/bleve_index_api"

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
func (x *Index) Tags(ctx context.Context, req wiki.TagsRequest) (_ []wiki.TagCount, err error) {
	defer x.guard(&err)
	defer faultGuard()()
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.bi == nil {
		return nil, ErrClosed
	}
	c := &compiler{bi: x.bi, im: x.im}
	prefix := strings.TrimLeft(strings.TrimSpace(req.Prefix), "#")
	if prefix != "" {
		prefix = c.key(prefix)
	}
	adv, err := x.bi.Advanced()
	if err != nil {
		return nil, fmt.Errorf("count tags: %w", err)
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, fmt.Errorf("count tags: %w", err)
	}
	defer r.Close()

	var counts map[string]int
	if folder := strings.Trim(strings.TrimSpace(req.Folder), "/"); folder != "" {
		counts, err = c.folderTagCounts(ctx, folder, prefix)
	} else {
		counts, err = termCounts(ctx, r, fieldTags, prefix)
	}
	if err != nil {
		return nil, err
	}
	spell, err := c.spellings(ctx, r, counts)
	if err != nil {
		return nil, err
	}

	type entry struct {
		key string
		wiki.TagCount
	}
	entries := make([]entry, 0, len(counts))
	for key, n := range counts {
		name := key
		if s, ok := spell[key]; ok {
			name = s
		}
		entries = append(entries, entry{key, wiki.TagCount{Tag: name, Count: n}})
	}
	sort.Slice(entries, func(i, j int) bool {
		if entries[i].Count != entries[j].Count {
			return entries[i].Count > entries[j].Count
		}
		return entries[i].key < entries[j].key
	})
	out := make([]wiki.TagCount, len(entries))
	for i, e := range entries {
		out[i] = e.TagCount
	}
	return out, nil
}

// termCounts returns how many live notes hold each term of field that
// starts with prefix. It
// walks the field's dictionary, which is as long as the tag vocabulary,
// and counts each term's postings without the deleted notes: the
// dictionary's own counts include them until segments merge.
func termCounts(ctx context.Context, r index.IndexReader, field, prefix string) (map[string]int, error) {
	var dict index.FieldDict
	var err error
	if prefix != "" {
		dict, err = r.FieldDictPrefix(field, []byte(prefix))
	} else {
		dict, err = r.FieldDict(field)
	}
	if err != nil {
		return nil, fmt.Errorf("count tags: %w", err)
	}
	defer dict.Close()
	counts := map[string]int{}
	for {
		e, err := dict.Next()
		if err != nil {
			return nil, fmt.Errorf("count tags: %w", err)
		}
		if e == nil {
			return counts, nil
		}
		n, err := termCount(ctx, r, field, e.Term)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			counts[e.Term] = n
		}
	}
}

// termCount returns how many live notes hold term in field.
func termCount(ctx context.Context, r index.IndexReader, field, term string) (int, error) {
	tfr, err := r.TermFieldReader(ctx, []byte(term), field, false, false, false)
	if err != nil {
		return 0, fmt.Errorf("count tag %q: %w", term, err)
	}
	n := tfr.Count()
	if err := tfr.Close(); err != nil {
		return 0, fmt.Errorf("count tag %q: %w", term, err)
	}
	return int(n), nil
}

// folderTagCounts counts the tags of the notes under folder with a terms
// facet over those notes.
func (c *compiler) folderTagCounts(ctx context.Context, folder, prefix string) (map[string]int, error) {
	sreq := bleve.NewSearchRequestOptions(c.keyword(fieldFolders, folder, false), 0, 0, false)
	sreq.AddFacet(fieldTags, bleve.NewFacetRequest(fieldTags, allTerms))
	res, err := c.bi.SearchInContext(ctx, sreq)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("count tags: %w", err)
	}
	counts := map[string]int{}
	if f := res.Facets[fieldTags]; f != nil && f.Terms != nil {
		for _, t := range f.Terms.Terms() {
			if strings.HasPrefix(t.Term, prefix) {
				counts[t.Term] = t.Count
			}
		}
	}
	return counts, nil
}

// spellings returns the spelling to show for each counted tag key: the
// spelling most notes use (ties to the smallest), read from the field that
// keeps tags as written. Only keys written in more than one way cost a
// count.
func (c *compiler) spellings(ctx context.Context, r index.IndexReader, counts map[string]int) (map[string]string, error) {
	dict, err := r.FieldDict(fieldTagsExact)
	if err != nil {
		return nil, fmt.Errorf("count tags: %w", err)
	}
	defer dict.Close()
	variants := map[string][]string{}
	for {
		e, err := dict.Next()
		if err != nil {
			return nil, fmt.Errorf("count tags: %w", err)
		}
		if e == nil {
			break
		}
		key := c.key(e.Term)
		if _, ok := counts[key]; ok {
			variants[key] = append(variants[key], e.Term)
		}
	}
	spell := make(map[string]string, len(variants))
	for key, vs := range variants {
		if len(vs) == 1 {
			spell[key] = vs[0]
			continue
		}
		best, bestN := "", -1
		for _, v := range vs { // in dictionary order: ties keep the smallest
			n, err := termCount(ctx, r, fieldTagsExact, v)
			if err != nil {
				return nil, err
			}
			if n > bestN {
				best, bestN = v, n
			}
		}
		spell[key] = best
	}
	return spell, nil
}
