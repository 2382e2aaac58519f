package cairn_test

import (
	"testing"

	"github.com/wikid/wikid/internal/profiles/cairn"
	"github.com/wikid/wikid/internal/profiles/profiletest"
)

// workspace is a Cairn workspace: a note with a find text twice, linking
// another, and a daily note.
var workspace = map[string]string{
	"notes/plan.md":       "---\ntitle: Plan\n---\n# Plan\n\n## Tasks\n\n- todo\n- todo\n\nSee [[ideas]].\n",
	"notes/ideas.md":      "# Ideas\n\nBack to [[plan]].\n",
	"notes/more.md":       "# More\n",
	"daily/2026-02-24.md": "---\ntitle: 2026-02-24\ntype: daily\n---\n## Meetings\n\n- standup\n",
}

// TestProfile_Hints runs Cairn's tools on their failure paths (an
// ambiguous or missing find, a missing note or section, a page that is
// not this list's) and checks that no error names an argument, field or
// tool that Cairn lacks.
func TestProfile_Hints(t *testing.T) {
	c := profiletest.Serve(t, cairn.Profile(), workspace)
	var page struct{ Cursor string }
	c.JSON("cairn_list", map[string]any{"path_prefix": "notes", "limit": 1}, &page)
	if page.Cursor == "" {
		t.Fatal("cairn_list gave no cursor for the next page")
	}
	failed := c.FailAll([]profiletest.Call{
		{Tool: "cairn_patch", Args: map[string]any{"path": "notes/plan", "op": "replace", "find": "- todo", "content": "- done"}},
		{Tool: "cairn_patch", Args: map[string]any{"path": "notes/plan", "op": "replace", "find": "no such text", "content": "x"}},
		{Tool: "cairn_patch", Args: map[string]any{"path": "notes/plan", "op": "replace", "content": "x"}},
		{Tool: "cairn_patch", Args: map[string]any{"path": "notes/plan", "op": "append_section", "section": "No such heading", "content": "x"}},
		{Tool: "cairn_patch", Args: map[string]any{"path": "notes/plan", "op": "prepend_section", "content": "x"}},
		{Tool: "cairn_patch", Args: map[string]any{"path": "notes/nothing", "op": "append", "content": "x"}},
		{Tool: "cairn_patch", Args: map[string]any{"path": "notes/plan", "op": "append", "content": ""}},
		{Tool: "cairn_read", Args: map[string]any{"path": "notes/nothing"}},
		{Tool: "cairn_read", Args: map[string]any{"path": "notes/plan", "section": "No such heading"}},
		{Tool: "cairn_delete", Args: map[string]any{"path": "notes/nothing"}},
		{Tool: "cairn_daily", Args: map[string]any{"date": "2026-02-24", "op": "append_section", "section": "No such heading", "content": "x"}},
		{Tool: "cairn_daily", Args: map[string]any{"date": "2026-02-30", "op": "read"}},
		{Tool: "cairn_list", Args: map[string]any{"path_prefix": "nowhere"}},
		{Tool: "cairn_list", Args: map[string]any{"cursor": "x"}},
		{Tool: "cairn_list", Args: map[string]any{"path_prefix": "notes", "limit": 1, "sort": "alpha", "cursor": page.Cursor}},
		{Tool: "cairn_list", Args: map[string]any{"path_prefix": "daily", "limit": 1, "cursor": page.Cursor}},
		{Tool: "cairn_search", Args: map[string]any{"query": "todo", "cursor": page.Cursor}},
		{Tool: "cairn_search", Args: map[string]any{"query": "todo", "cursor": "x"}},
		{Tool: "cairn_search", Args: map[string]any{}},
		{Tool: "cairn_search", Args: map[string]any{"query": "todo AND ("}},
		{Tool: "cairn_search", Args: map[string]any{"modified_since": "someday"}},
		{Tool: "cairn_write", Args: map[string]any{"path": "notes/a.md.md", "content": "x"}},
	})
	failed = append(failed, c.Walk(map[string]any{"path": "notes/more", "content": "x", "op": "append"})...)
	c.CheckNames(failed)
}
