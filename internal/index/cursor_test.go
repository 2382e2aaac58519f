package index

import (
	"context"
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

// walkDoc returns a note that matches "alpha" tf times. Every body has ten
// words, so that BM25's average field length does not move as notes come
// and go, and only the notes' count changes the scores.
func walkDoc(p string, tf int, title string, modified, created time.Time) wiki.Document {
	return wiki.Document{
		Path:     p,
		Title:    title,
		Body:     strings.TrimSpace(strings.Repeat("alpha ", tf) + strings.Repeat("filler ", 10-tf)),
		Modified: modified,
		Created:  created,
	}
}

// TestIndex_Search_cursor walks a 60-hit result page by page while notes
// are added and deleted between pages, in every sort order: every note
// that matched from the start and was never deleted must come exactly
// once, and no note twice.
func TestIndex_Search_cursor(t *testing.T) {
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	titles := []string{"Apple", "banana", "Cherry", "date", "Elder", "fig", "Grape"}
	for _, mode := range []string{"relevance", "modified", "created", "title"} {
		t.Run(mode, func(t *testing.T) {
			x, _ := openTest(t)
			var docs []wiki.Document
			for i := range 60 {
				// Pairs share their sort key, so the path breaks ties.
				docs = append(docs, walkDoc(fmt.Sprintf("notes/n%02d", i), 1+i%5, titles[i%7],
					base.Add(time.Duration(i/2)*time.Hour), base.Add(-time.Duration(i%10)*24*time.Hour)))
			}
			for i := range 10 {
				docs = append(docs, walkDoc(fmt.Sprintf("other/o%02d", i), 0, "Other", base, base))
			}
			apply(t, x, "c0", docs, nil)

			initial := map[string]bool{}
			for i := range 60 {
				initial[fmt.Sprintf("notes/n%02d", i)] = true
			}
			seen := map[string]int{}
			deleted := map[string]bool{}
			var order []string
			req := wiki.SearchRequest{Query: parse(t, "alpha"), Sort: mode, Limit: 7}
			for page := 0; ; page++ {
				if page > 30 {
					t.Fatal("the walk does not end")
				}
				res := find(t, x, req)
				for _, h := range res.Results {
					seen[h.Path]++
					order = append(order, h.Path)
				}
				if res.NextCursor == "" {
					break
				}
				req.Cursor = res.NextCursor

				// Change the index between pages: three new matching
				// notes, one unseen and one seen note deleted, one other
				// note added. The number of notes, and of notes that
				// match, grows: every score changes.
				var del []string
				for i := 59; i >= 0; i-- {
					p := fmt.Sprintf("notes/n%02d", i)
					if seen[p] == 0 && !deleted[p] {
						del = append(del, p)
						break
					}
				}
				for _, p := range order {
					if !deleted[p] && initial[p] {
						del = append(del, p)
						break
					}
				}
				for _, p := range del {
					deleted[p] = true
				}
				add := []wiki.Document{
					walkDoc(fmt.Sprintf("added/a%02d-1", page), 5, "Added", base.Add(time.Duration(page)*time.Minute), base),
					walkDoc(fmt.Sprintf("added/a%02d-2", page), 1, "added", base.Add(-time.Hour), base.Add(time.Hour)),
					walkDoc(fmt.Sprintf("added/a%02d-3", page), 3, "Cherry", base.Add(time.Hour), base.Add(-time.Hour)),
					walkDoc(fmt.Sprintf("other/p%02d", page), 0, "Other", base, base),
				}
				apply(t, x, fmt.Sprintf("c%d", page+1), add, del)
			}

			for p, n := range seen {
				if n > 1 {
					t.Errorf("%s came %d times", p, n)
				}
			}
			var missing []string
			for p := range initial {
				if !deleted[p] && seen[p] == 0 {
					missing = append(missing, p)
				}
			}
			slices.Sort(missing)
			if len(missing) > 0 {
				t.Errorf("never came: %q", missing)
			}
			if len(order) < 40 {
				t.Errorf("only %d hits in the walk", len(order))
			}
		})
	}
}

// TestIndex_Search_cursorPages checks that, without changes, the pages of a
// walk are exactly the full result list cut in pieces.
func TestIndex_Search_cursorPages(t *testing.T) {
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	x, _ := openTest(t)
	var docs []wiki.Document
	for i := range 60 {
		docs = append(docs, walkDoc(fmt.Sprintf("n%02d", i), 1+i%5, "T", base.Add(time.Duration(i%7)*time.Hour), base))
	}
	apply(t, x, "c0", docs, nil)
	for _, mode := range []string{"relevance", "modified", "created", "title"} {
		t.Run(mode, func(t *testing.T) {
			full := paths(find(t, x, wiki.SearchRequest{Query: parse(t, "alpha"), Sort: mode, Limit: 100}))
			var walked []string
			req := wiki.SearchRequest{Query: parse(t, "alpha"), Sort: mode, Limit: 8}
			for range 10 {
				res := find(t, x, req)
				if res.Total != 60 {
					t.Errorf("total = %d, want 60", res.Total)
				}
				walked = append(walked, paths(res)...)
				if res.NextCursor == "" {
					break
				}
				req.Cursor = res.NextCursor
			}
			if !slices.Equal(walked, full) {
				t.Errorf("walk = %q\nwant %q", walked, full)
			}
		})
	}
}

// TestIndex_Search_cursorErrors checks that a damaged cursor, or one made
// for another sort, is INVALID_PARAMS.
func TestIndex_Search_cursorErrors(t *testing.T) {
	x := openFixture(t)
	first := find(t, x, wiki.SearchRequest{Sort: "modified", Limit: 2})
	if first.NextCursor == "" {
		t.Fatal("no cursor")
	}
	enc := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	tests := []struct {
		name   string
		sort   string
		cursor string
	}{
		{"another sort", "title", first.NextCursor},
		{"relevance for modified", "", first.NextCursor},
		{"not base64", "modified", "!!!"},
		{"not json", "modified", enc("modified")},
		{"short key", "modified", enc(`{"sort":"modified","after":["2024-01-01T00:00:00Z"]}`)},
		{"bad date", "modified", enc(`{"sort":"modified","after":["yesterday","a"]}`)},
		{"bad score", "relevance", enc(`{"sort":"relevance","after":["high","a"]}`)},
		{"empty path", "title", enc(`{"sort":"title","after":["a",""]}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := x.Search(context.Background(), wiki.SearchRequest{Sort: tt.sort, Cursor: tt.cursor})
			if wiki.CodeOf(err) != wiki.CodeInvalidParams {
				t.Errorf("err = %v, want INVALID_PARAMS", err)
			}
		})
	}
}

// TestIndex_rescore checks that scoring the note a cursor points at gives
// exactly the score the note has in the search itself, with and without
// filters: a relevance cursor relies on it.
func TestIndex_rescore(t *testing.T) {
	x := openFixture(t)
	for _, req := range []wiki.SearchRequest{
		{Query: parse(t, "search*")},
		{Query: parse(t, `alpha OR "model context protocol" OR tag:person`)},
		{Query: parse(t, "protocol* -tag:meeting"), Folder: "projects"},
		{Query: parse(t, "-tag:project"), ModifiedSince: day(t, "2023-01-01")},
	} {
		t.Run(req.Query.String(), func(t *testing.T) {
			res := find(t, x, req)
			if len(res.Results) < 2 {
				t.Fatalf("only %d hits", len(res.Results))
			}
			c := &compiler{bi: x.bi, im: x.im, common: x.common.get(), langs: x.langs.get()}
			q, err := c.compile(context.Background(), req.Query)
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range res.Results {
				after, err := x.rescore(context.Background(), q, c.filters(req), []string{"0", h.Path})
				if err != nil {
					t.Fatal(err)
				}
				if want := strconv.FormatFloat(h.Score, 'g', -1, 64); after[0] != want {
					t.Errorf("%s: rescore %s, search %s", h.Path, after[0], want)
				}
			}
		})
	}
}
