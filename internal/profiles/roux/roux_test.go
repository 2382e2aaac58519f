package roux_test

import (
	"encoding/json"
	"testing"

	"github.com/wikid/wikid/internal/profiles/profiletest"
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
	c := profiletest.Serve(t, "roux", graph)
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
