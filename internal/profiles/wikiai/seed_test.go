package wikiai_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/profiles/profiletest"
	"github.com/wikid/wikid/internal/profiles/wikiai"
)

// The seed's get_note answer shows both dates:
//
//	**Created:** 2024-01-15T10:30:00Z
//	**Updated:** 2024-01-15T14:22:00Z
func TestSeed_GetNoteDates(t *testing.T) {
	c := profiletest.Serve(t, wikiai.Profile(), map[string]string{
		"projects/wiki-ai/ideas.md": "---\ntags: [brainstorm, product]\n---\n# My Ideas\n\nHere are my initial ideas.\n",
		"projects/dated.md":         "---\ncreated: 2024-01-15T10:30:00Z\n---\n# Dated\n",
	})
	c.OK("create_note", map[string]any{"path": "projects/fresh", "title": "Fresh", "content": "just made"})
	created := regexp.MustCompile(`(?m)^\*\*Created:\*\* \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)
	updated := regexp.MustCompile(`(?m)^\*\*Updated:\*\* \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)
	for _, p := range []string{"projects/wiki-ai/ideas", "projects/dated", "projects/fresh"} {
		got := c.OK("get_note", map[string]any{"path": p})
		if !created.MatchString(got) || !updated.MatchString(got) {
			t.Errorf("get_note %s lacks the seed's **Created:** and **Updated:** lines:\n%s", p, got)
		}
		if !strings.Contains(got, "**Path:** "+p+"\n") {
			t.Errorf("get_note %s lacks **Path:**:\n%s", p, got)
		}
	}
	if got := c.OK("get_note", map[string]any{"path": "projects/dated"}); !strings.Contains(got, "**Created:** 2024-01-15T10:30:00Z\n") {
		t.Errorf("get_note of a note created 2024-01-15T10:30:00Z:\n%s", got)
	}
}

// The seed's search_notes answer:
//
//	Found 47 notes (showing 1-10):
//
//	- **MCP Integration Ideas** (projects/wiki-ai/mcp-ideas)
//	  Tags: mcp, integration
//	  ...discussing **MCP** protocol options for the wiki...
//	...
//	Next page cursor: eyJzY29yZSI6MC43NSwiZG9jIjoxMjN9
func TestSeed_SearchNotesPages(t *testing.T) {
	c := profiletest.Serve(t, wikiai.Profile(), map[string]string{
		"projects/wiki-ai/mcp-ideas.md": "---\ntitle: MCP Integration Ideas\ntags: [mcp, integration]\n---\nWe are discussing MCP protocol options for the wiki.\n",
		"research/protocols.md":         "---\ntitle: Protocol Research\ntags: [research]\n---\nThe Model Context Protocol (MCP) provides tools.\n",
		"meetings/2024-01-15.md":        "---\ntitle: Meeting Notes Jan 15\n---\nWe decided to use MCP as primary interface.\n",
	})
	entry := regexp.MustCompile(`(?m)^- \*\*[^*]+\*\* \([^)]+\)\n(  Tags: .+\n)?  \.\.\..*\*\*MCP\*\*.*\.\.\.$`)
	cursor := regexp.MustCompile(`(?m)^Next page cursor: (\S+)$`)
	seen := map[string]bool{}
	args := map[string]any{"query": "mcp", "limit": 2}
	for page := 1; ; page++ {
		got := c.OK("search_notes", args)
		if page == 1 && !strings.HasPrefix(got, "Found 3 notes (showing 1-2):\n\n- **") {
			t.Errorf("page 1 does not start as the seed's:\n%s", got)
		}
		if n := len(entry.FindAllString(got, -1)); n == 0 {
			t.Errorf("page %d has no entry of the seed's shape (title, path, tags, snippet):\n%s", page, got)
		}
		for _, m := range regexp.MustCompile(`(?m)^- \*\*[^*]+\*\* \(([^)]+)\)$`).FindAllStringSubmatch(got, -1) {
			if seen[m[1]] {
				t.Errorf("page %d repeats %s", page, m[1])
			}
			seen[m[1]] = true
		}
		m := cursor.FindStringSubmatch(got)
		if m == nil {
			if page == 1 {
				t.Fatalf("page 1 of 3 notes at 2 a page lacks the seed's Next page cursor line:\n%s", got)
			}
			break
		}
		args = map[string]any{"query": "mcp", "limit": 2, "cursor": m[1]}
		if page > 3 {
			t.Fatal("more pages than notes")
		}
	}
	if len(seen) != 3 {
		t.Errorf("the pages found %d notes, want 3: %v", len(seen), seen)
	}
}

// The seed's get_note_history of a note without history answers:
//
//	No version history available for projects/wiki-ai/ideas
func TestSeed_GetNoteHistoryNone(t *testing.T) {
	c := profiletest.Serve(t, wikiai.Profile(), map[string]string{"projects/plan.md": "# Plan\n"})
	got := c.OK("get_note_history", map[string]any{"path": "projects/wiki-ai/ideas"})
	if got != "No version history available for projects/wiki-ai/ideas" {
		t.Errorf("get_note_history of a path without history = %q, want the seed's line", got)
	}
}
