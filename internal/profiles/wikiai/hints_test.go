package wikiai_test

import (
	"testing"

	"github.com/wikid/wikid/internal/profiles/profiletest"
	"github.com/wikid/wikid/internal/profiles/wikiai"
)

// wiki is a Wiki-AI wiki: a few notes, one linking another.
var wiki = map[string]string{
	"projects/ideas.md": "---\ntitle: Ideas\ntags: [project]\n---\n# Ideas\n\nSee [[plan]].\n",
	"projects/plan.md":  "# Plan\n\n- todo\n",
	"notes/other.md":    "# Other\n",
}

// TestProfile_Hints runs Wiki-AI's tools on their failure paths (a
// missing note or version, a move onto a note or onto itself, a page
// that is not this search's) and checks that no error names an argument,
// field or tool that Wiki-AI lacks.
func TestProfile_Hints(t *testing.T) {
	c := profiletest.Serve(t, wikiai.Profile(), wiki)
	failed := c.FailAll([]profiletest.Call{
		{Tool: "update_note", Args: map[string]any{"path": "projects/ideas", "new_path": "projects/plan"}},
		{Tool: "update_note", Args: map[string]any{"path": "projects/nothing", "content": "x"}},
		{Tool: "update_note", Args: map[string]any{"path": "projects/ideas"}},
		{Tool: "update_note", Args: map[string]any{"path": "projects/ideas", "tags": []any{"a"}, "add_tags": []any{"b"}}},
		{Tool: "update_note", Args: map[string]any{"path": "projects/ideas", "new_path": "../x"}},
		{Tool: "create_note", Args: map[string]any{"path": "projects/plan", "title": "Plan", "content": "x"}},
		{Tool: "get_note", Args: map[string]any{"path": "projects/nothing"}},
		{Tool: "get_note_version", Args: map[string]any{"path": "projects/plan", "version": "no-such-rev"}},
		{Tool: "get_note_version", Args: map[string]any{"path": "projects/plan", "version": "0123456789abcdef0123456789abcdef01234567"}},
		{Tool: "diff_note_versions", Args: map[string]any{"path": "projects/plan", "from_version": "no-such-rev", "to_version": "HEAD"}},
		{Tool: "restore_note_version", Args: map[string]any{"path": "projects/plan", "version": "no-such-rev"}},
		{Tool: "delete_note", Args: map[string]any{"path": "projects/nothing"}},
		{Tool: "search_notes", Args: map[string]any{"query": "plan", "cursor": "x"}},
		{Tool: "search_notes", Args: map[string]any{"query": "plan AND ("}},
		{Tool: "browse", Args: map[string]any{"path": "../x"}},
		{Tool: "recent_notes", Args: map[string]any{"since": "someday"}},
	})
	failed = append(failed, c.Walk(map[string]any{
		"path": "projects/plan", "title": "T", "content": "x", "query": "plan", "version": "HEAD",
		"from_version": "HEAD", "to_version": "HEAD",
	})...)
	c.CheckNames(failed)
}
