package tools_test

import (
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/tools/toolstest"
)

// TestServer_CursorBinding takes the first page of every tool with a
// cursor, then passes its next_cursor with other arguments: the call is
// INVALID_PARAMS with a hint to start again, while the same arguments (with
// another limit) continue the list.
func TestServer_CursorBinding(t *testing.T) {
	dir := toolstest.FixtureRepo(t)
	s := toolstest.NewSession(t, toolstest.ConnectHTTP(t, toolstest.ServeHTTP(t, toolstest.OpenWiki(t, dir, nil), mcpserver.Options{}, mcpserver.HTTPOptions{}), nil, ""))
	toolstest.WaitIndexed(t, s)
	// History to page through: two more commits on two notes.
	for i, p := range []string{"index", "people/alice", "index", "people/alice"} {
		toolstest.OK[toolstest.MutationOut](s, "edit_note", map[string]any{"path": p, "edits": []any{map[string]any{"op": "append", "content": strings.Repeat("more ", i+1)}}})
	}
	tests := []struct {
		tool    string
		args    map[string]any
		foreign []map[string]any
	}{
		{"search_notes", map[string]any{"query": "alpha"}, []map[string]any{
			{"query": "beta"}, {"query": "alpha", "sort": "title"}, {"query": "alpha", "folder": "projects"},
			{"query": "alpha", "tags": []any{"project"}}, {"query": "alpha", "modified_since": "2000-01-01"},
			{"query": "alpha", "backlinks_to": "index"},
		}},
		{"search_notes", map[string]any{"tags": []any{"project/alpha"}, "sort": "title"}, []map[string]any{
			{"tags": []any{"project"}, "sort": "title"}, {"query": "alpha", "tags": []any{"project/alpha"}, "sort": "title"},
		}},
		{"list_notes", map[string]any{"recursive": true}, []map[string]any{
			{"recursive": true, "tag": "person"}, {"recursive": false}, {"recursive": true, "path": "projects"},
		}},
		{"recent_changes", map[string]any{}, []map[string]any{{"folder": "people"}, {"since": "2000-01-01"}}},
		{"note_history", map[string]any{"path": "index"}, []map[string]any{{"path": "people/alice"}, {"path": "index", "follow_renames": false}}},
		{"activity_log", map[string]any{}, []map[string]any{{"tool": "edit_note"}, {"folder": "people"}, {"until": "2999-01-01"}}},
		{"find_broken_links", map[string]any{}, []map[string]any{{"folder": "projects"}}},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			first, _ := toolstest.OK[struct {
				NextCursor string `json:"next_cursor"`
			}](s, tt.tool, toolstest.With(tt.args, "limit", 1))
			if first.NextCursor == "" {
				t.Fatalf("%s %v: one page only; the test needs two", tt.tool, tt.args)
			}
			for _, args := range tt.foreign {
				e := s.Fail(tt.tool, toolstest.With(toolstest.With(args, "limit", 1), "cursor", first.NextCursor), "INVALID_PARAMS")
				if hint, _ := e["hint"].(string); !strings.Contains(hint, "without cursor") {
					t.Errorf("%s %v: hint %q", tt.tool, args, hint)
				}
			}
			toolstest.OK[map[string]any](s, tt.tool, toolstest.With(toolstest.With(tt.args, "limit", 2), "cursor", first.NextCursor))
		})
	}
}
