package braindrive_test

import (
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/profiles/braindrive"
	"github.com/wikid/wikid/internal/profiles/profiletest"
)

// library is a BrainDrive library: notes in folders, one linking another.
var library = map[string]string{
	"notes/plan.md":      "# Plan\n\n## Tasks\n\n- todo\n- todo\n\nSee [[ideas]].\n",
	"notes/ideas.md":     "# Ideas\n\nBack to [[plan]].\n",
	"guides/setup.md":    "# Setup\n\nRun the installer.\n",
	"top.md":             "# Top\n",
	"attachments/a.txt":  "not a note\n",
	"projects/x/deep.md": "# Deep\n",
}

// TestListMarkdownFiles_OutsideLibrary checks the seed's path rules for
// every tool that takes a path: no .., no absolute paths. Such a path is
// refused with INVALID_PATH, saying the rule, and changes nothing.
func TestListMarkdownFiles_OutsideLibrary(t *testing.T) {
	c := profiletest.Serve(t, braindrive.Profile(), library)
	paths := []string{"..", "../", "../..", "../notes", "notes/../..", "notes/../../x", "projects/../notes", "./..", "/", "/notes", "/etc", "//notes", `C:\notes`, "C:/notes"}
	for _, p := range paths {
		t.Run(p, func(t *testing.T) {
			for _, call := range []profiletest.Call{
				{Tool: "list_markdown_files", Args: map[string]any{"path": p}},
				{Tool: "list_markdown_files", Args: map[string]any{"path": p, "recursive": true}},
				{Tool: "search_markdown", Args: map[string]any{"query": "todo", "path": p}},
			} {
				text := c.Fail(call.Tool, call.Args)
				if !strings.HasPrefix(text, "INVALID_PATH: ") || !strings.Contains(text, "no .. and no absolute paths") {
					t.Errorf("%s %q: %s; want INVALID_PATH with the seed's path rules", call.Tool, p, text)
				}
			}
		})
	}
	t.Run("files", func(t *testing.T) {
		for _, p := range []string{"../notes/plan.md", "/notes/plan.md", "notes/../../plan.md"} {
			for _, call := range []profiletest.Call{
				{Tool: "read_markdown", Args: map[string]any{"path": p}},
				{Tool: "search_markdown", Args: map[string]any{"query": "todo", "path": p}},
				{Tool: "write_markdown", Args: map[string]any{"path": p, "content": "# X\n"}},
				{Tool: "edit_markdown", Args: map[string]any{"path": p, "operation": map[string]any{"type": "append", "content": "x"}}},
				{Tool: "preview_markdown_change", Args: map[string]any{"path": p, "operation": map[string]any{"type": "append", "content": "x"}}},
				{Tool: "delete_markdown", Args: map[string]any{"path": p, "confirm": true}},
			} {
				if text := c.Fail(call.Tool, call.Args); !strings.Contains(text, "no .. and no absolute paths") {
					t.Errorf("%s %q: %s; want the seed's path rules", call.Tool, p, text)
				}
			}
		}
	})
	t.Run("inside", func(t *testing.T) {
		// Paths that stay inside the library still list.
		for _, p := range []string{"", ".", "./", "notes", "notes/", "./notes"} {
			var out struct{ Files, Folders []string }
			c.JSON("list_markdown_files", map[string]any{"path": p}, &out)
			if len(out.Files)+len(out.Folders) == 0 {
				t.Errorf("list_markdown_files %q: nothing listed", p)
			}
		}
	})
}
