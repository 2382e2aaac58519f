package index

import (
	"encoding/base64"
	"encoding/json"
	"strconv"

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

// sortOrder returns bleve's sort for a sort order. Every order ends with
// the note path (the document id), so that no two notes compare equal and
// a cursor is exact. (Sorting on a doc-values copy of the path instead
// measured twice as slow.)
func sortOrder(mode string) search.SortOrder {
	byID := &search.SortDocID{}
	switch mode {
	case sortModified:
		return search.SortOrder{keyDesc(fieldModKey), byID}
	case sortCreated:
		return search.SortOrder{keyDesc(fieldCreatedKey), byID}
	case sortTitle:
		return search.SortOrder{&search.SortField{Field: fieldTitleSort, Type: search.SortFieldAsString}, byID}
	default:
		return search.SortOrder{&search.SortScore{Desc: true}, byID}
	}
}

// keyDesc sorts on a time key, newest first.
func keyDesc(field string) *search.SortField {
	return &search.SortField{Field: field, Type: search.SortFieldAsString, Desc: true}
}

// cursor is the position after the last hit of a page: the sort order and
// that hit's sort key, in the form bleve's SearchAfter takes (a score as a
// decimal, a date in RFC 3339, the lowercased title, then the path).
type cursor struct {
	Sort  string   `json:"sort"`
	After []string `json:"after"`
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
	after := []string{key, h.ID}
	b, _ := json.Marshal(cursor{Sort: mode, After: after})
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor reads a cursor for sort order mode. It returns an
// INVALID_PARAMS error for a cursor that is malformed or was made for
// another sort order.
func decodeCursor(s, mode string) (*cursor, error) {
	bad := func(why string) error {
		return wiki.Errorf(wiki.CodeInvalidParams, "bad cursor: %s", why).
			WithHint("pass the next_cursor of the previous page unchanged, with the same sort, or omit it to start over")
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, bad("not a cursor")
	}
	var c cursor
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, bad("not a cursor")
	}
	if c.Sort != mode {
		return nil, bad("it belongs to sort " + strconv.Quote(c.Sort) + ", not " + strconv.Quote(mode))
	}
	if len(c.After) != 2 || c.After[1] == "" {
		return nil, bad("wrong sort key")
	}
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
