package e2e_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// rxCall calls a Roux tool and decodes its text, which is JSON, into out;
// it fails the test unless the call succeeded.
func rxCall(t *testing.T, c *tsClient, name string, args map[string]any, out any) {
	t.Helper()
	res := c.call(t, name, args)
	if res.IsError {
		t.Fatalf("%s %v: %s", name, args, res.text())
	}
	if err := json.Unmarshal([]byte(res.text()), out); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, res.text())
	}
}

// rxFail calls a Roux tool that must fail with Roux's error shape and
// code, and checks that nothing was committed.
func rxFail(t *testing.T, c *tsClient, dir, name string, args map[string]any, code string) {
	t.Helper()
	before := headOf(t, dir)
	res := c.call(t, name, args)
	var e struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	if !res.IsError || json.Unmarshal([]byte(res.text()), &e) != nil || e.Error.Code != code || e.Error.Message == "" {
		t.Errorf("%s %v: %v %q, want error %s", name, args, res.IsError, res.text(), code)
	}
	if headOf(t, dir) != before {
		t.Errorf("%s %v failed, yet made a commit", name, args)
	}
}

type rxNodeOut struct {
	ID                string  `json:"id"`
	Title             string  `json:"title"`
	Content           *string `json:"content"`
	Tags              []string
	Links             []struct{ ID, Title string }
	IncomingNeighbors []rxNodeOut `json:"incomingNeighbors"`
	OutgoingNeighbors []rxNodeOut `json:"outgoingNeighbors"`
	IncomingCount     *int        `json:"incomingCount"`
	OutgoingCount     *int        `json:"outgoingCount"`
}

// TestE2E_ProfileRoux drives `wikid serve --profile roux` with the official
// TypeScript client through Roux's tools, response types, truncation
// limits, "not an error" answers and error codes.
func TestE2E_ProfileRoux(t *testing.T) {
	t.Parallel()
	requireNode(t)
	dir := gittest.Init(t)
	files := map[string]string{
		"notes/graphcore.md":         "---\ntags: [architecture, core]\n---\n# GraphCore\n\nThe orchestration hub of Roux. " + strings.Repeat("More detail. ", 1000) + "\n\nUses [[notes/storeprovider]], [[notes/embeddingprovider]] and [[notes/node]].\n",
		"notes/storeprovider.md":     "---\ntags: [provider]\n---\n# StoreProvider\n\nData persistence and graph operations, at length. " + strings.Repeat("Words. ", 100) + "\nSee [[notes/node]].\n",
		"notes/embeddingprovider.md": "---\ntags: [provider]\n---\n# EmbeddingProvider\n\nVectors.\n",
		"notes/node.md":              "# Node\n\nThe unit.\n",
		"notes/architecture.md":      "---\ntags: [overview]\n---\n# Architecture Overview\n\nRoux is built around the [[notes/graphcore]].\n",
		"recipes/bulgogi.md":         "---\ntags: [recipe, Korean]\n---\n# Bulgogi\n",
		"recipes/chicken.md":         "---\ntags: [recipe]\n---\n# Chicken\n",
		"recipes/Kimchi Stew.md":     "---\ntags: [recipe, korean]\n---\n# Kimchi Stew\n",
	}
	gittest.Commit(t, dir, "nodes", files)
	bridge := startBridge(t)
	c := connectTS(t, bridge, stdioRequest(wikidBin, "--repo", dir, "--profile", "roux"))
	c.plain = true
	checkSeedTools(t, c, "roux")
	if _, ok := c.tools["search"]; ok {
		t.Error("search is listed, but no embedding provider is configured")
	}

	t.Run("get_node", func(t *testing.T) {
		var n rxNodeOut
		rxCall(t, c, "get_node", map[string]any{"id": "Notes/GraphCore.md"}, &n)
		if n.ID != "notes/graphcore.md" || n.Title != "GraphCore" || !reflect.DeepEqual(n.Tags, []string{"architecture", "core"}) || len(n.Links) != 3 {
			t.Errorf("get_node: %+v", n)
		}
		if n.Content == nil || !strings.HasSuffix(*n.Content, "... [truncated]") || len([]rune(*n.Content)) != 10000+len("... [truncated]") {
			t.Errorf("a primary node's content is cut at 10,000 characters: %d", len(*n.Content))
		}
		if n.Links[0].ID != "notes/storeprovider.md" || n.Links[0].Title != "StoreProvider" {
			t.Errorf("links: %+v", n.Links)
		}
		var deep rxNodeOut
		rxCall(t, c, "get_node", map[string]any{"id": "notes/graphcore.md", "depth": 1}, &deep)
		if deep.IncomingCount == nil || *deep.IncomingCount != 1 || *deep.OutgoingCount != 3 || len(deep.OutgoingNeighbors) != 3 || len(deep.IncomingNeighbors) != 1 {
			t.Fatalf("depth 1: %+v", deep)
		}
		if nb := deep.OutgoingNeighbors[0]; nb.ID != "notes/storeprovider.md" || !strings.HasSuffix(*nb.Content, "... [truncated]") || len([]rune(*nb.Content)) != 200+len("... [truncated]") {
			t.Errorf("a neighbour's content is cut at 200 characters: %+v", nb)
		}
		res := c.call(t, "get_node", map[string]any{"id": "notes/nothing.md"})
		if res.IsError || res.text() != "null" {
			t.Errorf("a missing node is null, not an error: %v %q", res.IsError, res.text())
		}
		rxFail(t, c, dir, "get_node", map[string]any{"id": "notes/node.md", "depth": 2}, "INVALID_PARAMS")
	})

	t.Run("get_neighbors, find_path, get_hubs", func(t *testing.T) {
		var nbs []rxNodeOut
		rxCall(t, c, "get_neighbors", map[string]any{"id": "notes/node.md", "direction": "in"}, &nbs)
		if len(nbs) != 2 || nbs[0].Content != nil {
			t.Errorf("get_neighbors in: %+v", nbs)
		}
		rxCall(t, c, "get_neighbors", map[string]any{"id": "notes/graphcore.md", "limit": 2, "include_content": true}, &nbs)
		if len(nbs) != 2 || nbs[0].Content == nil || len([]rune(*nbs[0].Content)) > 500+len("... [truncated]") {
			t.Errorf("get_neighbors with content, limit 2: %+v", nbs)
		}
		rxCall(t, c, "get_neighbors", map[string]any{"id": "notes/nothing.md"}, &nbs)
		if len(nbs) != 0 {
			t.Errorf("neighbours of nothing: %+v", nbs)
		}
		var p struct {
			Path   []string
			Length int
		}
		rxCall(t, c, "find_path", map[string]any{"source": "notes/architecture.md", "target": "notes/node.md"}, &p)
		if p.Length != 2 || len(p.Path) != 3 || p.Path[0] != "notes/architecture.md" || p.Path[2] != "notes/node.md" {
			t.Errorf("find_path: %+v", p)
		}
		if res := c.call(t, "find_path", map[string]any{"source": "notes/node.md", "target": "recipes/chicken.md"}); res.IsError || res.text() != "null" {
			t.Errorf("no path is null: %q", res.text())
		}
		var hubs []struct {
			ID    string
			Title string
			Score float64
		}
		rxCall(t, c, "get_hubs", map[string]any{"limit": 1}, &hubs)
		if len(hubs) != 1 || hubs[0].ID != "notes/node.md" || hubs[0].Score != 2 {
			t.Errorf("get_hubs: %+v", hubs)
		}
		rxFail(t, c, dir, "get_hubs", map[string]any{"metric": "pagerank"}, "INVALID_PARAMS")
	})

	t.Run("search_by_tags, random_node, list_nodes, resolve_nodes, nodes_exist", func(t *testing.T) {
		var nodes []rxNodeOut
		rxCall(t, c, "search_by_tags", map[string]any{"tags": []string{"korean", "provider"}}, &nodes)
		if len(nodes) != 4 {
			t.Errorf("any of korean, provider: %d nodes", len(nodes))
		}
		rxCall(t, c, "search_by_tags", map[string]any{"tags": []string{"recipe", "korean"}, "mode": "all"}, &nodes)
		if len(nodes) != 2 {
			t.Errorf("all of recipe, korean: %+v", nodes)
		}
		rxFail(t, c, dir, "search_by_tags", map[string]any{"tags": []string{}}, "INVALID_PARAMS")
		var n rxNodeOut
		rxCall(t, c, "random_node", map[string]any{"tags": []string{"overview"}}, &n)
		if n.ID != "notes/architecture.md" {
			t.Errorf("random_node: %+v", n)
		}
		if res := c.call(t, "random_node", map[string]any{"tags": []string{"nosuchtag"}}); res.IsError || res.text() != "null" {
			t.Errorf("random_node with no match is null: %q", res.text())
		}
		var list struct {
			Nodes []struct{ ID, Title string }
			Total int
		}
		rxCall(t, c, "list_nodes", map[string]any{"tag": "RECIPE", "limit": 2}, &list)
		if list.Total != 3 || len(list.Nodes) != 2 || list.Nodes[0].ID != "recipes/bulgogi.md" {
			t.Errorf("list_nodes tag: %+v", list)
		}
		rxCall(t, c, "list_nodes", map[string]any{"tag": "recipe", "offset": 2}, &list)
		if list.Total != 3 || len(list.Nodes) != 1 || list.Nodes[0].ID != "recipes/kimchi stew.md" {
			t.Errorf("list_nodes offset: %+v", list)
		}
		rxCall(t, c, "list_nodes", map[string]any{"path": "Notes/Graph"}, &list)
		if list.Total != 1 || list.Nodes[0].ID != "notes/graphcore.md" {
			t.Errorf("list_nodes path prefix: %+v", list)
		}
		var resolved []struct {
			Query string
			Match *string
			Score float64
		}
		rxCall(t, c, "resolve_nodes", map[string]any{"names": []string{"bulgogi", "chikken", "zzzz"}, "threshold": 0.5}, &resolved)
		if len(resolved) != 3 || resolved[0].Match == nil || *resolved[0].Match != "recipes/bulgogi.md" || resolved[0].Score != 1 ||
			resolved[1].Match == nil || *resolved[1].Match != "recipes/chicken.md" || resolved[2].Match != nil {
			t.Errorf("resolve_nodes: %+v", resolved)
		}
		// Without an embedding provider, the semantic strategy says so.
		rxFail(t, c, dir, "resolve_nodes", map[string]any{"names": []string{"bulgogi"}, "strategy": "semantic"}, "INVALID_PARAMS")
		var exist map[string]bool
		rxCall(t, c, "nodes_exist", map[string]any{"ids": []string{"recipes/bulgogi.md", "recipes/nonexistent.md", "RECIPES/Kimchi Stew.md"}}, &exist)
		if !reflect.DeepEqual(exist, map[string]bool{"recipes/bulgogi.md": true, "recipes/nonexistent.md": false, "recipes/kimchi stew.md": true}) {
			t.Errorf("nodes_exist: %v", exist)
		}
	})

	t.Run("create_node, update_node, delete_node", func(t *testing.T) {
		before := headOf(t, dir)
		var n rxNodeOut
		rxCall(t, c, "create_node", map[string]any{"id": "meetings/Meeting Notes.md", "content": "# Meeting Notes\n\nDiscussed [[notes/node]].\n", "tags": []string{"meeting"}}, &n)
		if n.ID != "meetings/meeting notes.md" || len(n.Links) != 1 || !reflect.DeepEqual(n.Tags, []string{"meeting"}) {
			t.Errorf("create_node: %+v", n)
		}
		oneCommit(t, dir, before, "create_node")
		if _, err := gittest.TryGit(dir, "cat-file", "-e", "HEAD:meetings/meeting notes.md"); err != nil {
			t.Error("the new node's file is not lower case")
		}
		rxFail(t, c, dir, "create_node", map[string]any{"id": "meetings/meeting notes.md", "content": "x"}, "NODE_EXISTS")
		rxFail(t, c, dir, "create_node", map[string]any{"id": "meetings/plain", "content": "x"}, "INVALID_PARAMS")

		before = headOf(t, dir)
		rxCall(t, c, "update_node", map[string]any{"id": "meetings/meeting notes.md", "content": "New content.\n", "tags": []string{"done"}}, &n)
		if *n.Content != "New content.\n" || !reflect.DeepEqual(n.Tags, []string{"done"}) {
			t.Errorf("update_node: %+v", n)
		}
		oneCommit(t, dir, before, "update_node")
		before = headOf(t, dir)
		rxCall(t, c, "update_node", map[string]any{"id": "meetings/meeting notes.md", "title": "Standup"}, &n)
		if n.ID != "meetings/standup.md" || n.Title != "Standup" {
			t.Errorf("update_node title: %+v", n)
		}
		oneCommit(t, dir, before, "update_node")
		rxFail(t, c, dir, "update_node", map[string]any{"id": "notes/node.md", "title": "Unit"}, "LINK_INTEGRITY")
		rxFail(t, c, dir, "update_node", map[string]any{"id": "notes/nothing.md", "content": "x"}, "NODE_NOT_FOUND")
		rxFail(t, c, dir, "update_node", map[string]any{"id": "notes/node.md"}, "INVALID_PARAMS")

		before = headOf(t, dir)
		var del map[string]bool
		rxCall(t, c, "delete_node", map[string]any{"id": "meetings/standup.md"}, &del)
		if !del["deleted"] {
			t.Errorf("delete_node: %v", del)
		}
		oneCommit(t, dir, before, "delete_node")
		rxCall(t, c, "delete_node", map[string]any{"id": "meetings/standup.md"}, &del)
		if del["deleted"] {
			t.Errorf("delete_node of a missing node: %v", del)
		}
	})
}
