package braindrive_test

import (
	"testing"

	"github.com/wikid/wikid/internal/profiles/braindrive"
	"github.com/wikid/wikid/internal/profiles/profiletest"
)

// TestProfile_Hints runs BrainDrive's tools on their failure paths and
// checks that no error names an argument, field or tool that BrainDrive
// lacks.
func TestProfile_Hints(t *testing.T) {
	c := profiletest.Serve(t, braindrive.Profile(), library)
	op := func(typ, target string) map[string]any {
		return map[string]any{"type": typ, "target": target, "content": "x"}
	}
	failed := c.FailAll([]profiletest.Call{
		{Tool: "read_markdown", Args: map[string]any{"path": "notes/nothing.md"}},
		{Tool: "read_markdown", Args: map[string]any{"path": "notes/plan"}},
		{Tool: "list_markdown_files", Args: map[string]any{"path": "nowhere"}},
		{Tool: "search_markdown", Args: map[string]any{"query": ""}},
		{Tool: "edit_markdown", Args: map[string]any{"path": "notes/plan.md", "operation": op("replace_section", "No such heading")}},
		{Tool: "edit_markdown", Args: map[string]any{"path": "notes/plan.md", "operation": op("insert_after", "")}},
		{Tool: "edit_markdown", Args: map[string]any{"path": "notes/nothing.md", "operation": op("append", "")}},
		{Tool: "edit_markdown", Args: map[string]any{"path": "notes/plan.md", "operation": map[string]any{"type": "append"}}},
		{Tool: "preview_markdown_change", Args: map[string]any{"path": "notes/plan.md", "operation": op("insert_before", "Nope")}},
		{Tool: "delete_markdown", Args: map[string]any{"path": "notes/plan.md", "confirm": false}},
		{Tool: "delete_markdown", Args: map[string]any{"path": "notes/nothing.md", "confirm": true}},
		{Tool: "write_markdown", Args: map[string]any{"path": "notes/a.md.md", "content": "x"}},
		{Tool: "get_markdown_activity_log", Args: map[string]any{"limit": 1000}},
	})
	failed = append(failed, c.Walk(map[string]any{
		"path": "notes/plan.md", "query": "todo", "content": "x", "confirm": true,
		"operation": map[string]any{"type": "append", "content": "x"},
	})...)
	c.CheckNames(failed)
}
