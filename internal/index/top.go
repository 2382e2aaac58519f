package index

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
)

// top returns the hits of one page in order, and the number of notes that
// match. One hit more than the page follows it when another page does.
//
// The order of every sort ends with the note path, so that it is total
// and a cursor is exact. Breaking ties on the path costs bleve a lookup of
// the path of every matching note, most of the time of a search that
// matches many notes. A page is therefore first collected by its sort key
// alone (the score, a date or the title), with the paths of the hits it
// returns only; that page is kept when no note outside it ties with its
// last hit. Otherwise the page is collected again in the full order.
//
// The cursor's own note never comes back: a relevance cursor's score is
// the note's score in another search (see rescore), and a score that
// differs by the last bit puts the note after its own cursor.
func (x *Index) top(ctx context.Context, q query.Query, s sorting, after []string, limit int, fields []string) ([]*search.DocumentMatch, uint64, error) {
	hits, total, ok, err := x.topByKey(ctx, q, s, after, limit, fields)
	if err != nil || ok {
		return hits, total, err
	}
	return x.topExact(ctx, q, s, after, limit, fields)
}

// topExact collects a page in the full order of its sort.
func (x *Index) topExact(ctx context.Context, q query.Query, s sorting, after []string, limit int, fields []string) ([]*search.DocumentMatch, uint64, error) {
	size := limit + 1
	if after != nil {
		size++ // room for the cursor's note, dropped
	}
	sreq := searchRequest(q, size, fields)
	sreq.SortByCustom(s.order())
	sreq.SearchAfter = after
	res, err := x.bi.SearchInContext(ctx, sreq)
	if err != nil {
		return nil, 0, searchError(ctx, err)
	}
	hits := res.Hits
	if after != nil {
		hits = slices.DeleteFunc(hits, func(h *search.DocumentMatch) bool { return h.ID == after[1] })
	}
	return hits[:min(len(hits), limit+1)], res.Total, nil
}

// topByKey collects a page by its sort key alone. It reports false when
// hits it did not collect may belong to the page: notes tied with the
// page's last hit, or with the cursor's, may be missing.
func (x *Index) topByKey(ctx context.Context, q query.Query, s sorting, after []string, limit int, fields []string) ([]*search.DocumentMatch, uint64, bool, error) {
	order := s.order()[:1]
	size := limit + 1
	var cur *search.DocumentMatch
	var from []string
	if after != nil {
		cur, from = cursorKey(s.mode, after)
		// Bleve skips the notes whose key is SearchAfter's or before
		// it: start from just before the cursor's key, so that the notes
		// tied with the cursor's note come back too, and leave room for
		// them.
		size += limit
	}
	sreq := searchRequest(q, size, fields)
	sreq.SortByCustom(order)
	sreq.SearchAfter = from
	res, err := x.bi.SearchInContext(ctx, sreq)
	if err != nil {
		return nil, 0, false, searchError(ctx, err)
	}
	byKey := func(a, b *search.DocumentMatch) int { return compareKeys(s.mode, a, b) }
	hits := res.Hits
	complete := len(hits) < size
	var last *search.DocumentMatch
	if !complete {
		last = hits[len(hits)-1]
	}
	if cur != nil {
		if last != nil && byKey(last, cur) == 0 {
			return nil, 0, false, nil // the notes tied with the cursor's may go on
		}
		hits = slices.DeleteFunc(hits, func(h *search.DocumentMatch) bool {
			return h.ID == after[1] || byKey(h, cur) == 0 && h.ID <= after[1]
		})
	}
	slices.SortFunc(hits, func(a, b *search.DocumentMatch) int {
		if c := byKey(a, b); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	// A note that was not collected comes after the last one collected, or
	// ties with it: the page is exact when its own last hit comes before.
	if last != nil && (len(hits) <= limit || byKey(hits[limit-1], last) >= 0) {
		return nil, 0, false, nil
	}
	return hits[:min(len(hits), limit+1)], res.Total, true, nil
}

// compareKeys compares the sort keys of two hits collected by key alone,
// in the order of sort mode: negative when a comes first.
func compareKeys(mode string, a, b *search.DocumentMatch) int {
	switch mode {
	case sortRelevance:
		return cmp.Compare(b.Score, a.Score)
	case sortTitle:
		return cmp.Compare(a.Sort[0], b.Sort[0])
	default: // dates, newest first
		return cmp.Compare(b.Sort[0], a.Sort[0])
	}
}

// cursorKey returns a hit with the sort key of a cursor, to compare hits
// with, and the SearchAfter value just before that key, so that the hits
// tied with the cursor's come back.
func cursorKey(mode string, after []string) (*search.DocumentMatch, []string) {
	key := after[0] // checked by decodeCursor
	switch mode {
	case sortRelevance:
		score, _ := strconv.ParseFloat(key, 64)
		above := math.Nextafter(score, math.Inf(1))
		return &search.DocumentMatch{Score: score}, []string{strconv.FormatFloat(above, 'g', -1, 64)}
	case sortTitle:
		// The greatest string before the key, for keys of valid UTF-8
		// (which never holds the byte 0xff): the key with its last
		// byte one less and 0xff after it. Every key is after "".
		cur := &search.DocumentMatch{Sort: []string{key}}
		if key == "" {
			return cur, nil
		}
		before := key[:len(key)-1]
		if b := key[len(key)-1]; b > 0 {
			before += string([]byte{b - 1, 0xff})
		}
		return cur, []string{before}
	default:
		// Dates are newest first: the string just after the key.
		return &search.DocumentMatch{Sort: []string{key}}, []string{key + "\x00"}
	}
}

// searchRequest returns a request for the first size hits of q, with the
// given stored fields.
func searchRequest(q query.Query, size int, fields []string) *bleve.SearchRequest {
	sreq := bleve.NewSearchRequestOptions(q, size, 0, false)
	sreq.Fields = fields
	return sreq
}

// searchError returns the context's error when it ended the search, or
// err wrapped.
func searchError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return fmt.Errorf("search: %w", err)
}
