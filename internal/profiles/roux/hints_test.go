package roux_test

import (
	"testing"

	"github.com/wikid/wikid/internal/profiles/profiletest"
	"github.com/wikid/wikid/internal/profiles/roux"
)

// TestProfile_Hints runs Roux's tools on their failure paths (a node
// that exists or does not, a rename that would break links, a strategy
// the server cannot follow) and checks that no error names an argument,
// field or tool that Roux lacks.
func TestProfile_Hints(t *testing.T) {
	c := profiletest.Serve(t, roux.Profile(), graph)
	failed := c.FailAll([]profiletest.Call{
		{Tool: "create_node", Args: map[string]any{"id": "notes/hub.md", "content": "x"}},
		{Tool: "create_node", Args: map[string]any{"id": "notes/plain", "content": "x"}},
		{Tool: "create_node", Args: map[string]any{"id": "../x.md", "content": "x"}},
		{Tool: "update_node", Args: map[string]any{"id": "notes/nothing.md", "content": "x"}},
		{Tool: "update_node", Args: map[string]any{"id": "notes/hub.md"}},
		{Tool: "update_node", Args: map[string]any{"id": "notes/spoke.md", "title": "Wheel"}},
		{Tool: "update_node", Args: map[string]any{"id": "notes/alone.md", "title": "Hub"}},
		{Tool: "update_node", Args: map[string]any{"id": "notes/alone.md", "title": "../../x"}},
		{Tool: "resolve_nodes", Args: map[string]any{"names": []any{"hub"}, "strategy": "semantic"}},
		{Tool: "search_by_tags", Args: map[string]any{"tags": []any{}}},
		{Tool: "get_hubs", Args: map[string]any{"limit": 0}},
		{Tool: "list_nodes", Args: map[string]any{"offset": -1}},
	})
	failed = append(failed, c.Walk(map[string]any{
		"id": "notes/alone.md", "content": "x", "tags": []any{"solo"}, "source": "notes/hub.md", "target": "notes/spoke.md",
		"names": []any{"hub"}, "ids": []any{"notes/hub.md"},
	})...)
	c.CheckNames(failed)
}
