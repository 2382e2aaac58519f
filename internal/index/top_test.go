package index

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2/search"

	"github.com/wikid/wikid/internal/wiki"
)

// TestIndex_topByKey checks the page collected by sort key alone against
// the page collected in the full order, in every sort, on notes whose keys
// tie often: bodies drawn from a few words, many of them identical, a few
// dates and a few titles. Pages are walked with cursors; wherever topByKey
// keeps its page, it must be the exact one (but for the hit after it,
// which only tells that another page follows), and both outcomes must
// occur. Walking every page of 300 notes one at a time takes a minute
// under the race detector; with -short it walks 100 notes.
func TestIndex_topByKey(t *testing.T) {
	notes := 300
	if testing.Short() {
		notes = 100
	}
	x, _ := openTest(t)
	r := rand.New(rand.NewPCG(3, 4))
	words := []string{"alpha", "beta", "gamma", "delta"}
	// Titles whose sort keys are neighbours: "a" and "a a", "é" and "e".
	titles := []string{"T", "a", "A a", "b", "é", "e", "ab", "Zeta", "zz"}
	base := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	var docs []wiki.Document
	for i := range notes {
		n := 1 + r.IntN(4)
		if i%3 == 0 {
			n = 2 // a third of the notes are the same two words
		}
		var body []string
		for range n {
			body = append(body, words[r.IntN(len(words))])
		}
		if i%3 == 0 {
			body = []string{"alpha", "beta"}
		}
		docs = append(docs, wiki.Document{
			Path:     fmt.Sprintf("n/%03d", i),
			Title:    titles[r.IntN(len(titles))],
			Body:     strings.Join(body, " "),
			Modified: base.Add(time.Duration(r.IntN(20)) * time.Hour),
			Created:  base.Add(time.Duration(r.IntN(200)) * time.Nanosecond),
		})
	}
	apply(t, x, "c1", docs, nil)
	for _, mode := range []string{sortRelevance, sortModified, sortCreated, sortTitle} {
		t.Run(mode, func(t *testing.T) { walkTop(t, x, mode) })
	}
}

func walkTop(t *testing.T, x *Index, mode string) {
	ctx := context.Background()
	var kept, fellBack int
	for _, text := range []string{"alpha", "alpha beta", "alpha OR gamma", "-delta", "gam*", "\"alpha beta\"", "title:t"} {
		c := &compiler{bi: x.bi, im: x.im}
		q, err := c.compile(ctx, parse(t, text))
		if err != nil {
			t.Fatal(err)
		}
		q = withFilter(q, nil)
		for _, limit := range []int{1, 2, 3, 7, 50} {
			var after []string
			for page := 0; ; page++ {
				want, wantTotal, err := x.topExact(ctx, q, c.sorting(mode), after, limit, nil)
				if err != nil {
					t.Fatal(err)
				}
				got, total, ok, err := x.topByKey(ctx, q, c.sorting(mode), after, limit, nil)
				if err != nil {
					t.Fatal(err)
				}
				if ok {
					kept++
					// The hit after the page only tells that more follow.
					more, wantMore := len(got) > limit, len(want) > limit
					if g, w := ids(got[:min(limit, len(got))]), ids(want[:min(limit, len(want))]); g != w || more != wantMore || total != wantTotal {
						t.Fatalf("%q limit %d page %d after %v: got %s (total %d), want %s (total %d)",
							text, limit, page, after, g, total, w, wantTotal)
					}
				} else {
					fellBack++
				}
				if len(want) <= limit {
					break
				}
				// The cursor of the exact page's last hit, as Search makes it.
				last := want[limit-1]
				after = []string{last.DecodedSort[0], last.ID}
				if mode == sortRelevance {
					after[0] = fmt.Sprint(last.Score)
				}
			}
		}
	}
	t.Logf("kept %d pages, fell back on %d", kept, fellBack)
	if kept == 0 || fellBack == 0 {
		t.Errorf("kept %d pages and fell back on %d: the test must see both", kept, fellBack)
	}
}

// ids returns the ids and scores of hits, for comparison and messages.
func ids(hits []*search.DocumentMatch) string {
	var b strings.Builder
	for _, h := range hits {
		fmt.Fprintf(&b, "%s(%g) ", h.ID, h.Score)
	}
	return b.String()
}

// TestIndex_topCursorNoteNeverComesBack: a relevance cursor whose score is
// a bit above its note's score in this search (the note rescored by
// another search, which may differ in the last bit) does not bring the
// note back on the next page, in either way of collecting a page.
func TestIndex_topCursorNoteNeverComesBack(t *testing.T) {
	x, _ := openTest(t)
	var docs []wiki.Document
	for i := range 5 {
		docs = append(docs, wiki.Document{Path: fmt.Sprintf("n/%d", i), Title: fmt.Sprintf("N%d", i), Body: strings.Repeat("launch ", i+1) + "plan"})
	}
	apply(t, x, "c1", docs, nil)
	ctx := context.Background()
	c := &compiler{bi: x.bi, im: x.im}
	q, err := c.compile(ctx, parse(t, "launch"))
	if err != nil {
		t.Fatal(err)
	}
	q = withFilter(q, nil)
	first, _, err := x.topExact(ctx, q, c.sorting(sortRelevance), nil, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	anchor := first[0]
	above := strconv.FormatFloat(math.Nextafter(anchor.Score, math.Inf(1)), 'g', -1, 64)
	after := []string{above, anchor.ID}
	exact, _, err := x.topExact(ctx, q, c.sorting(sortRelevance), after, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	byKey, _, _, err := x.topByKey(ctx, q, c.sorting(sortRelevance), after, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	for how, hits := range map[string][]*search.DocumentMatch{"in the full order": exact, "by key": byKey} {
		for _, h := range hits {
			if h.ID == anchor.ID {
				t.Errorf("collected %s, the page after %s holds %s again: %s", how, anchor.ID, anchor.ID, ids(hits))
			}
		}
	}
	if len(exact) != 3 {
		t.Errorf("the page after the cursor in the full order: %s, want 2 hits and the one after", ids(exact))
	}
}
