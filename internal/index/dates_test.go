package index

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

// TestIndex_Search_GitDates checks date terms and sorts over notes dated
// by git (the request's GitDates) and by their frontmatter, mixed, and
// that a search after an update, whose documents are numbered anew, still
// finds each note's own git dates.
func TestIndex_Search_GitDates(t *testing.T) {
	x, _ := openTest(t)
	at := func(y int) time.Time { return time.Date(y, 6, 1, 0, 0, 0, 0, time.UTC) }
	var docs []wiki.Document
	dates := wiki.GitDates{}
	for i := range 40 {
		d := wiki.Document{Path: fmt.Sprintf("n%02d", i), File: fmt.Sprintf("n%02d.md", i), Body: "word"}
		if i%4 == 0 {
			d.Modified = at(1980 + i) // in the frontmatter
		}
		dates[d.Path] = wiki.GitDate{Created: at(2000), Modified: at(2000 + i)}
		docs = append(docs, d)
	}
	apply(t, x, "c1", docs, nil)

	// want is what a scan of every note finds: the notes modified in
	// [from, to) and all of them newest first, by the frontmatter's
	// date, else git's.
	want := func(from, to int) (in, newest []string) {
		type dated struct {
			path string
			t    time.Time
		}
		var all []dated
		for _, d := range docs {
			if _, ok := dates[d.Path]; !ok && d.Modified.IsZero() {
				continue
			}
			m := d.Modified
			if m.IsZero() {
				m = dates[d.Path].Modified
			}
			all = append(all, dated{d.Path, m})
			if !m.Before(at(from)) && m.Before(at(to)) {
				in = append(in, d.Path)
			}
		}
		slices.SortStableFunc(all, func(a, b dated) int { return b.t.Compare(a.t) })
		for _, d := range all {
			newest = append(newest, d.path)
		}
		slices.Sort(in)
		return in, newest
	}
	check := func(t *testing.T) {
		t.Helper()
		inRange, newest := want(2010, 2030)
		got := sortedPaths(find(t, x, wiki.SearchRequest{Query: parse(t, "modified:>=2010-06-01 modified:<2030-06-01"), Limit: 100, GitDates: dates}))
		if !slices.Equal(got, inRange) {
			t.Errorf("modified in 2010..2030: %v, want %v", got, inRange)
		}
		got = paths(find(t, x, wiki.SearchRequest{Sort: "modified", Limit: 100, GitDates: dates}))
		if !slices.Equal(got, newest) {
			t.Errorf("by modified: %v\nwant %v", got, newest)
		}
		got = sortedPaths(find(t, x, wiki.SearchRequest{ModifiedSince: at(2030), Limit: 100, GitDates: dates}))
		if since, _ := want(2030, 3000); !slices.Equal(got, since) {
			t.Errorf("modified since 2030: %v, want %v", got, since)
		}
	}
	t.Run("first snapshot", check)

	// Delete half of the notes and write the others again, with the same
	// git dates: the notes are numbered anew, and the search must read
	// the new snapshot's numbers.
	var deleted []string
	var kept []wiki.Document
	for i, d := range docs {
		if i%2 == 1 {
			deleted = append(deleted, d.Path)
			continue
		}
		d.Body = "word, again"
		kept = append(kept, d)
	}
	docs = kept
	apply(t, x, "c2", docs, deleted)
	t.Run("after an update", check)

	// A note git's dates do not hold has no date: the oldest. (A map
	// once passed never changes: a new one for new dates.)
	dates = maps.Clone(dates)
	delete(dates, docs[1].Path)
	res := find(t, x, wiki.SearchRequest{Sort: "modified", Limit: 100, GitDates: dates})
	if got := paths(res); got[len(got)-1] != docs[1].Path {
		t.Errorf("by modified, a note without dates is not last: %v", got)
	}
}
