package index

import (
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/wikid/wikid/internal/wiki"

	"github.com/blevesearch/bleve/v2/search"
)

// The sort orders of a search.
const (
	sortRelevance = "relevance" // score, highest first
	sortModified  = "modified"  // newest first
	sortCreated   = "created"   // newest first
	sortTitle     = "title"     // A to Z, ignoring case
)

// parseSort returns the sort order named s ("" is relevance), or an
// INVALID_PARAMS error.
func parseSort(s string) (string, error) {
	switch s {
	case "", sortRelevance:
		return sortRelevance, nil
	case sortModified, sortCreated, sortTitle:
		return s, nil
	default:
		return "", wiki.Errorf(wiki.CodeInvalidParams, "unknown sort %q", s).
			WithHint("use relevance, modified, created or title")
	}
}

// sorting is a sort order and the git dates its date keys need.
type sorting struct {
	mode  string
	dates *searchDates
}

// sorting returns the sort order mode of a search compiled by c.
func (c *compiler) sorting(mode string) sorting {
	s := sorting{mode: mode}
	if mode == sortModified || mode == sortCreated {
		s.dates = c.gitDates()
	}
	return s
}

// order returns bleve's sort for a sort order. Every order ends with the
// note path (the document id), so that no two notes compare equal and a
// cursor is exact. (Sorting on a doc-values copy of the path instead
// measured twice as slow.)
func (s sorting) order() search.SortOrder {
	// Ties go by path, from doc values: bleve's own sort by document id
	// reads each hit's id from its stored fields, which for a word that
	// every note holds read the stored bodies of all of them (66 MB of
	// the index's pages at 100,000 notes, and most of the search's time).
	byID := &search.SortField{Field: fieldPathSort, Type: search.SortFieldAsString}
	switch s.mode {
	case sortModified:
		return search.SortOrder{&dateSort{kind: modifiedDate, dates: s.dates, desc: true}, byID}
	case sortCreated:
		return search.SortOrder{&dateSort{kind: createdDate, dates: s.dates, desc: true}, byID}
	case sortTitle:
		return search.SortOrder{&search.SortField{Field: fieldTitleSort, Type: search.SortFieldAsString}, byID}
	default:
		return search.SortOrder{&search.SortScore{Desc: true}, byID}
	}
}

// cursor is the position after the last hit of a page: that hit's sort
// key, in the form bleve's SearchAfter takes (a score as a decimal, a date
// in RFC 3339, the lowercased title, then the path).
//
// On the wire it is base64url of the sort order's first letter, the key, a
// NUL and the path: a path never holds a NUL, so the last one splits them.
type cursor struct {
	After []string
	// Question is set for a page of a question's relaxed answer, which
	// goes on at Offset in its ranking; After is then nil.
	Question bool
	Offset   int
}

// questionCursor returns the cursor of a question's relaxed answer that
// goes on at offset: base64url of "q" and the offset.
func questionCursor(offset int) string {
	return base64.RawURLEncoding.EncodeToString([]byte("q" + strconv.Itoa(offset)))
}

// badCursor is the INVALID_PARAMS error of a cursor that cannot go on.
func badCursor(why string) error {
	return wiki.Errorf(wiki.CodeInvalidParams, "bad cursor: %s", why).
		WithHint("pass the {next_cursor} of the previous page unchanged, with the same sort, or omit it to start over")
}

// cursorAfter returns the cursor that continues after hit h.
func cursorAfter(mode string, h *search.DocumentMatch) string {
	// A hit collected by its sort key alone has no path in its sort, and
	// one collected by score alone no sort key but its score.
	key := ""
	if mode == sortRelevance {
		key = strconv.FormatFloat(h.Score, 'g', -1, 64)
	} else if len(h.DecodedSort) > 0 {
		key = h.DecodedSort[0]
	}
	return base64.RawURLEncoding.EncodeToString([]byte(mode[:1] + key + "\x00" + h.ID))
}

// decodeCursor reads a cursor for sort order mode. It returns an
// INVALID_PARAMS error for a cursor that is malformed or was made for
// another sort order.
func decodeCursor(s, mode string) (*cursor, error) {
	bad := badCursor
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) == 0 {
		return nil, bad("not a cursor")
	}
	raw := string(b)
	if raw[0] == 'q' {
		offset, err := strconv.Atoi(raw[1:])
		switch {
		case mode != sortRelevance:
			return nil, bad("it belongs to sort \"relevance\", not " + strconv.Quote(mode))
		case err != nil || offset <= 0 || offset >= questionDepth || raw[1] == '+' || raw[1] == '0':
			return nil, bad("not a cursor")
		}
		return &cursor{Question: true, Offset: offset}, nil
	}
	made := ""
	for _, m := range []string{sortRelevance, sortModified, sortCreated, sortTitle} {
		if raw[0] == m[0] {
			made = m
		}
	}
	if made == "" {
		return nil, bad("not a cursor")
	}
	if made != mode {
		return nil, bad("it belongs to sort " + strconv.Quote(made) + ", not " + strconv.Quote(mode))
	}
	i := strings.LastIndexByte(raw, 0)
	if i < 0 || i == len(raw)-1 {
		return nil, bad("wrong sort key")
	}
	c := cursor{After: []string{raw[1:i], raw[i+1:]}}
	switch mode {
	case sortRelevance:
		if _, err := strconv.ParseFloat(c.After[0], 64); err != nil {
			return nil, bad("wrong score")
		}
	case sortModified, sortCreated:
		if !isTimeKey(c.After[0]) {
			return nil, bad("wrong date")
		}
	}
	return &c, nil
}
