package index

import (
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/wiki"
)

// questionDocs are notes that hold some of the words of "how do I sync my
// notes to my phone".
func questionDocs() []wiki.Document {
	return []wiki.Document{
		{Path: "all", File: "all.md", Title: "Everything", Body: "How do I sync my notes to my phone? Like this."},
		{Path: "sync-phone", File: "sync-phone.md", Title: "Phone", Body: "Sync the notes to the phone in settings."},
		{Path: "far", File: "far.md", Title: "Far", Body: "Sync is a feature. " + strings.Repeat("Other words here. ", 30) + "A phone is a device."},
		{Path: "phone", File: "phone.md", Title: "Phones", Body: "Use a phone."},
		{Path: "none", File: "none.md", Title: "Nothing", Body: "Gardening and bread."},
		{Path: "stop", File: "stop.md", Title: "Stop", Body: "How do I? To my."},
	}
}

func TestIndex_Question(t *testing.T) {
	x, _ := openTest(t)
	apply(t, x, "c1", questionDocs(), nil)
	res := find(t, x, wiki.SearchRequest{Query: parse(t, "how do I sync my notes to my phone"), Limit: 10})
	got := paths(res)
	// The note with every word first, then most words, and close together
	// before far apart; the note of stop words alone and the one of none
	// are not found.
	if want := []string{"all", "sync-phone"}; len(got) < 2 || !slices.Equal(got[:2], want) {
		t.Fatalf("got %q, want %q first", got, want)
	}
	if slices.Contains(got, "none") || slices.Contains(got, "stop") {
		t.Errorf("got %q: a note without a content word", got)
	}
	if i, j := slices.Index(got, "far"), slices.Index(got, "phone"); i < 0 || j < 0 {
		t.Errorf("got %q: notes with some of the words missing", got)
	}
	if res.QuestionWords != 3 {
		t.Errorf("question words %d, want 3 (sync, notes, phone)", res.QuestionWords)
	}
	matched := map[string]int{}
	for _, h := range res.Results {
		matched[h.Path] = h.Matched
	}
	if matched["all"] != 3 || matched["sync-phone"] != 3 || matched["far"] != 2 || matched["phone"] != 1 {
		t.Errorf("matched %v", matched)
	}
}

func TestIndex_Question_pages(t *testing.T) {
	x, _ := openTest(t)
	apply(t, x, "c1", questionDocs(), nil)
	q := parse(t, "how do I sync my notes to my phone")
	all := paths(find(t, x, wiki.SearchRequest{Query: q, Limit: 10}))
	var paged []string
	cursor := ""
	for range 10 {
		res := find(t, x, wiki.SearchRequest{Query: q, Limit: 2, Cursor: cursor})
		paged = append(paged, paths(res)...)
		if cursor = res.NextCursor; cursor == "" {
			break
		}
	}
	// One note has every word, fewer than a page holds: the pages go on
	// through the question's answer, and together they are all of it.
	if !slices.Equal(paged, all) {
		t.Errorf("pages %q, all at once %q", paged, all)
	}
	if _, err := x.Search(t.Context(), wiki.SearchRequest{Query: parse(t, "sync AND phone"), Limit: 1, Cursor: questionCursor(1)}); wiki.CodeOf(err) != wiki.CodeInvalidParams {
		t.Errorf("a question's cursor for another query: %v", err)
	}
}

// TestIndex_Question_strict checks what a question keeps strict: a full
// page of notes with every word, operators, phrases, exclusions.
func TestIndex_Question_strict(t *testing.T) {
	x, _ := openTest(t)
	apply(t, x, "c1", questionDocs(), nil)
	for _, tt := range []struct {
		query string
		limit int
		want  []string
	}{
		{"sync phone", 1, []string{"sync-phone"}},                    // a full page with both: as always
		{"sync AND phone", 10, []string{"all", "far", "sync-phone"}}, // explicit AND
		{"sync OR gardening", 10, []string{"all", "far", "none", "sync-phone"}},
		{`"sync the notes" phone`, 10, []string{"sync-phone"}},                     // the phrase stays required
		{"sync phone -feature", 10, []string{"all", "phone", "sync-phone"}},        // the exclusion stays
		{"prune -a phone sync", 10, []string{"all", "far", "phone", "sync-phone"}}, // "-a" is ignored
	} {
		res := find(t, x, wiki.SearchRequest{Query: parse(t, tt.query), Limit: tt.limit})
		got := paths(res)
		if tt.limit > 1 {
			got = sortedPaths(res)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.query, got, tt.want)
		}
	}
}

func TestShortestSpan(t *testing.T) {
	for _, tt := range []struct {
		lists [][]uint64
		want  int
	}{
		{[][]uint64{{1}, {2}}, 2},
		{[][]uint64{{1, 10}, {12}}, 3},
		{[][]uint64{{1, 20}, {5, 21}, {9, 22}}, 3},
		{[][]uint64{{4}, {4}}, 1},
	} {
		if got := shortestSpan(tt.lists); got != tt.want {
			t.Errorf("shortestSpan(%v) = %d, want %d", tt.lists, got, tt.want)
		}
	}
}
