package roux_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/profiles/profiletest"
	"github.com/wikid/wikid/internal/profiles/roux"
)

// graph is a small Roux graph: hub links to two nodes, one of which links
// back; alone links to nothing, and nothing links to it.
var graph = map[string]string{
	"notes/hub.md":   "# Hub\n\nSee [[spoke]] and [[other]].\n",
	"notes/spoke.md": "# Spoke\n\nBack to [[hub]].\n",
	"notes/other.md": "# Other\n\nNothing here.\n",
	"notes/alone.md": "---\ntags: [solo]\n---\n# Alone\n\nNo links at all.\n",
}

// TestGetNode_Neighbors checks NodeWithContextResponse at depth 1: both
// neighbour lists and both counts are always there, [] and 0 for a node
// without neighbours; at depth 0 none of them is.
func TestGetNode_Neighbors(t *testing.T) {
	c := profiletest.Serve(t, roux.Profile(), graph)
	tests := []struct {
		id                 string
		depth              int
		incoming, outgoing int
	}{
		{"notes/alone.md", 1, 0, 0},
		{"notes/other.md", 1, 1, 0},
		{"notes/hub.md", 1, 1, 2},
		{"notes/alone.md", 0, -1, -1},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			var got map[string]json.RawMessage
			c.JSON("get_node", map[string]any{"id": tt.id, "depth": tt.depth}, &got)
			for _, dir := range []string{"incoming", "outgoing"} {
				want := tt.incoming
				if dir == "outgoing" {
					want = tt.outgoing
				}
				list, hasList := got[dir+"Neighbors"]
				count, hasCount := got[dir+"Count"]
				if want < 0 {
					if hasList || hasCount {
						t.Errorf("depth 0 has %sNeighbors or %sCount: %s", dir, dir, list)
					}
					continue
				}
				var nodes []struct{ ID string }
				if !hasList || json.Unmarshal(list, &nodes) != nil || nodes == nil || len(nodes) != want {
					t.Errorf("%sNeighbors is %s, want a list of %d", dir, list, want)
				}
				if !hasCount || string(count) != jsonInt(want) {
					t.Errorf("%sCount is %s, want %d", dir, count, want)
				}
			}
		})
	}
}

func jsonInt(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestCreateNode_Title checks the seed's rule for a new node's title: the
// one given, else the file name without .md (of the id, lowercased),
// never the content's first heading; the node keeps it.
func TestCreateNode_Title(t *testing.T) {
	c := profiletest.Serve(t, roux.Profile(), graph)
	tests := []struct {
		name      string
		args      map[string]any
		id, title string
	}{
		{"from the file name", map[string]any{"id": "meetings/meeting-notes-2024-01-15.md",
			"content": "# Meeting Notes\n\nDiscussed project timeline...", "tags": []any{"meeting"}},
			"meetings/meeting-notes-2024-01-15.md", "meeting-notes-2024-01-15"},
		{"lowercased", map[string]any{"id": "notes/My Note.md", "content": "# Something Else\n\nText."},
			"notes/my note.md", "my note"},
		{"without a heading", map[string]any{"id": "notes/plain.md", "content": "Just text."},
			"notes/plain.md", "plain"},
		{"given", map[string]any{"id": "notes/given.md", "content": "# Heading\n\nText.", "title": "Given Title"},
			"notes/given.md", "Given Title"},
		{"in the content's frontmatter", map[string]any{"id": "notes/fm.md", "content": "---\ntitle: Written Title\n---\n# Heading\n"},
			"notes/fm.md", "Written Title"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var created, read struct{ ID, Title string }
			c.JSON("create_node", tt.args, &created)
			if created.ID != tt.id || created.Title != tt.title {
				t.Errorf("create_node: %+v, want id %q title %q", created, tt.id, tt.title)
			}
			c.JSON("get_node", map[string]any{"id": tt.id}, &read)
			if read.Title != tt.title {
				t.Errorf("get_node after create_node: title %q, want %q", read.Title, tt.title)
			}
			body := gittest.Git(t, c.Dir, "show", "HEAD:"+tt.id)
			if content := tt.args["content"].(string); !strings.Contains(body, content) {
				t.Errorf("%s holds\n%s\nwithout the content given", tt.id, body)
			}
		})
	}
}
