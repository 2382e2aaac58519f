package web

import (
	"fmt"
	"slices"
	"testing"

	"github.com/wikid/wikid/internal/wiki"
)

// TestChartKey checks that a chart is kept only for what it depends on:
// a new commit, another filter or another page draws it again, and a page
// of unreviewed work, whose chart the marks change, is never kept.
func TestChartKey(t *testing.T) {
	page := func(newest, next string, f map[string]string) changesPage {
		return changesPage{Filters: f, Next: next, Commits: []wiki.ActivityEntry{{Commit: newest}}}
	}
	base, ok := chartKey(page("c1", "", map[string]string{"folder": "a"}))
	if !ok {
		t.Fatal("a plain page's chart is not kept")
	}
	for name, p := range map[string]changesPage{
		"a new commit":   page("c2", "", map[string]string{"folder": "a"}),
		"another filter": page("c1", "", map[string]string{"folder": "b"}),
		"another page":   page("c1", "cursor", map[string]string{"folder": "a"}),
	} {
		if k, ok := chartKey(p); !ok || k == base {
			t.Errorf("%s: key %q, kept %v: want another key than %q", name, k, ok, base)
		}
	}
	if _, ok := chartKey(page("c1", "", map[string]string{"unreviewed": "1"})); ok {
		t.Error("the chart of unreviewed work is kept")
	}
	if _, ok := chartKey(changesPage{}); ok {
		t.Error("an empty page's chart is kept")
	}
}

// TestSeriesOrder_Colours checks that a client's colour stands for it:
// the same whatever its rank and whoever else is drawn, people in theirs,
// and two clients whose names pick the same colour drawn in two.
func TestSeriesOrder_Colours(t *testing.T) {
	classes := func(counts map[string]int) map[string]string {
		legend, _ := seriesOrder(counts)
		out := map[string]string{}
		for _, s := range legend {
			out[s.Name] = s.Class
		}
		return out
	}
	one := classes(map[string]int{"claude-code": 9, "cursor": 1, "people": 4})
	two := classes(map[string]int{"claude-code": 1, "cursor": 7, "codex": 3, "people": 9})
	for _, n := range []string{"claude-code", "cursor"} {
		if one[n] != two[n] {
			t.Errorf("%s is drawn in %s in one view and %s in another", n, one[n], two[n])
		}
	}
	if one["people"] != "speople" || two["people"] != "speople" {
		t.Errorf("people are drawn in %s and %s", one["people"], two["people"])
	}
	// Two names that pick the same colour alone.
	alone := map[string]string{}
	var a, b string
	for i := 0; b == "" && i < 100; i++ {
		n := fmt.Sprintf("client-%d", i)
		c := seriesColours([]string{n})[n]
		for m, mc := range alone {
			if mc == c {
				a, b = m, n
			}
		}
		alone[n] = c
	}
	both := classes(map[string]int{a: 1, b: 2})
	if both[a] == both[b] {
		t.Errorf("%s and %s are both drawn in %s", a, b, both[a])
	}
	if first := min(a, b); both[first] != alone[first] {
		t.Errorf("%s, first by name, lost its colour %s for %s", first, alone[first], both[first])
	}
}

// TestNewLinkMap_Labels checks that a neighbour's label too long for its
// box is cut between words, not in one.
func TestNewLinkMap_Labels(t *testing.T) {
	m := newLinkMap("a", "A", &wiki.LinksResult{Exists: true, Outgoing: []wiki.OutLink{
		{Path: "sync", Title: "Troubleshoot Obsidian Sync"}, {Path: "long", Title: "Internationalization"}, {Path: "short", Title: "Sync"}}})
	var got []string
	for _, n := range m.Out {
		got = append(got, n.Label)
	}
	if want := []string{"Troubleshoot…", "Internationaliz…", "Sync"}; !slices.Equal(got, want) {
		t.Errorf("labels %q, want %q", got, want)
	}
}
