package web

import (
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
