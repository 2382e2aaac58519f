package obsidian_test

import (
	"testing"

	"github.com/wikid/wikid/internal/profiles/obsidian"
	"github.com/wikid/wikid/internal/profiles/profiletest"
)

// TestProfile_Hints runs the Obsidian tools on their failure paths (a
// missing note, a move onto a note or onto itself, a bad pattern) and
// checks that no error names an argument, field or tool that the profile
// lacks.
func TestProfile_Hints(t *testing.T) {
	c := profiletest.Serve(t, obsidian.Profile(), vault)
	failed := c.FailAll([]profiletest.Call{
		{Tool: "move_note", Args: map[string]any{"source_path": "Inbox/Idea.md", "destination_path": "Projects/Plan.md"}},
		{Tool: "move_note", Args: map[string]any{"source_path": "Inbox/Idea.md", "destination_path": "Inbox/Idea.md"}},
		{Tool: "move_note", Args: map[string]any{"source_path": "Inbox/Nothing.md", "destination_path": "Archive/Nothing.md"}},
		{Tool: "move_note", Args: map[string]any{"source_path": "Inbox/Idea.md", "destination_path": ""}},
		{Tool: "move_folder", Args: map[string]any{"source_folder": "Nowhere", "destination_folder": "Elsewhere"}},
		{Tool: "move_folder", Args: map[string]any{"source_folder": "Old", "destination_folder": "Old"}},
		{Tool: "read_note", Args: map[string]any{"path": "Inbox/Nothing.md"}},
		{Tool: "create_note", Args: map[string]any{"path": "Inbox/Idea.md", "content": "x"}},
		{Tool: "update_note", Args: map[string]any{"path": "Inbox/Nothing.md", "content": "x"}},
		{Tool: "delete_note", Args: map[string]any{"path": "Inbox/Nothing.md"}},
		{Tool: "add_tags", Args: map[string]any{"path": "Inbox/Nothing.md", "tags": []any{"x"}}},
		{Tool: "add_tags", Args: map[string]any{"path": "Inbox/Idea.md", "tags": []any{"bad tag!"}}},
		{Tool: "search_by_regex", Args: map[string]any{"pattern": "("}},
		{Tool: "search_notes", Args: map[string]any{"query": "idea AND ("}},
		{Tool: "list_notes", Args: map[string]any{"directory": "Nowhere"}},
		{Tool: "read_image", Args: map[string]any{"path": "Inbox/nothing.png"}},
	})
	failed = append(failed, c.Walk(map[string]any{
		"path": "Inbox/Idea.md", "content": "x", "tags": []any{"x"}, "query": "idea", "pattern": "idea",
		"source_path": "Inbox/Idea.md", "destination_path": "Inbox/Idea 2.md",
		"source_folder": "Old", "destination_folder": "Old 2", "folder_path": "New",
		"property_name": "status",
	})...)
	c.CheckNames(failed)
}
