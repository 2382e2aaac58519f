package e2e_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// obsidianTools are the tools of the Obsidian MCP patterns, in their groups.
var obsidianTools = []string{
	"read_note", "create_note", "update_note", "delete_note",
	"search_notes", "search_by_date", "search_by_regex", "search_by_property", "list_notes", "list_folders",
	"move_note", "move_folder", "create_folder", "add_tags", "update_tags", "remove_tags", "get_note_info", "list_tags",
	"get_backlinks", "get_outgoing_links", "find_broken_links",
	"read_image", "view_note_images",
}

// obCall calls an Obsidian tool that must succeed and decodes its JSON text.
func obCall(t *testing.T, c *tsClient, name string, args map[string]any) map[string]any {
	t.Helper()
	res := c.call(t, name, args)
	if res.IsError {
		t.Fatalf("%s %v: %s", name, args, res.text())
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(res.text()), &out); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, res.text())
	}
	return out
}

// hasKeys fails unless m has every key, as the seed's structure for its
// kind of operation has.
func hasKeys(t *testing.T, what string, m map[string]any, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			t.Errorf("%s lacks %q: %v", what, k, m)
		}
	}
}

func paths(items any, key string) []string {
	var out []string
	for _, it := range items.([]any) {
		out = append(out, it.(map[string]any)[key].(string))
	}
	sort.Strings(out)
	return out
}

// TestE2E_ProfileObsidian drives `wikid serve --profile obsidian` with the
// official TypeScript client through the Obsidian patterns' tools and
// their standard response structures, checking every change with git.
func TestE2E_ProfileObsidian(t *testing.T) {
	t.Parallel()
	requireNode(t)
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "vault", map[string]string{
		"Projects/AI Research.md": "---\ntags: [research, ai]\nstatus: active\npriority: 3\n---\n# AI Research\n\nTODO: read the paper. See [[Daily/2024-01-15]] and [[Missing Note]].\n\n![[diagram.png]]\n![[gone.png]]\n",
		"Projects/Old.md":         "---\nstatus: done\npriority: 1\ntags: [archive]\n---\n# Old\n\nLinks to [[AI Research]].\n",
		"Daily/2024-01-15.md":     "# 2024-01-15\n\nWorked on [[AI Research]]. todo: nothing.\n",
		"Inbox/Quick.md":          "# Quick\n\nA quick note.\n",
	})
	os.WriteFile(filepath.Join(dir, "diagram.png"), pngOf(t, 1000, 500), 0o644)
	gittest.Commit(t, dir, "image", nil)
	bridge := startBridge(t)
	c := connectTS(t, bridge, stdioRequest(wikidBin, "--repo", dir, "--profile", "obsidian"))
	c.plain = true
	tools := c.listTools(t)
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
		// The seed's documentation pattern: when to use the tool, and
		// which other tool to use instead.
		if !strings.Contains(tl.Description, "When to use:") || !strings.Contains(tl.Description, "(use ") {
			t.Errorf("%s's description does not say when to use it and when another tool: %q", tl.Name, tl.Description)
		}
		if tl.OutputSchema != nil {
			t.Errorf("%s has an output schema", tl.Name)
		}
	}
	want := slices.Clone(obsidianTools)
	sort.Strings(names)
	sort.Strings(want)
	if !slices.Equal(names, want) {
		t.Fatalf("tools %v\nwant  %v", names, want)
	}

	t.Run("note management", func(t *testing.T) {
		r := obCall(t, c, "read_note", map[string]any{"path": "Projects/AI Research.md"})
		hasKeys(t, "read_note", r, "success", "path", "operation", "details")
		meta := r["details"].(map[string]any)["metadata"].(map[string]any)
		if r["operation"] != "read" || meta["frontmatter"].(map[string]any)["status"] != "active" || len(meta["tags"].([]any)) != 2 {
			t.Errorf("read_note: %v", r)
		}
		before := headOf(t, dir)
		r = obCall(t, c, "create_note", map[string]any{"path": "Ideas/New Idea.md", "content": "# New Idea\n\n#idea\n"})
		if r["operation"] != "created" || r["path"] != "Ideas/New Idea.md" {
			t.Errorf("create_note: %v", r)
		}
		oneCommit(t, dir, before, "create_note")
		if res := c.call(t, "create_note", map[string]any{"path": "Ideas/New Idea.md", "content": "x"}); !res.IsError || !strings.HasPrefix(res.text(), "ALREADY_EXISTS: ") {
			t.Errorf("create_note over a note: %q", res.text())
		}
		before = headOf(t, dir)
		if r = obCall(t, c, "create_note", map[string]any{"path": "Ideas/New Idea.md", "content": "# New Idea\n", "overwrite": true}); r["operation"] != "updated" {
			t.Errorf("create_note overwrite: %v", r)
		}
		oneCommit(t, dir, before, "create_note")
		before = headOf(t, dir)
		obCall(t, c, "update_note", map[string]any{"path": "Ideas/New Idea.md", "content": "Appended.", "merge_strategy": "append"})
		oneCommit(t, dir, before, "update_note")
		if got := gittest.Git(t, dir, "show", "HEAD:Ideas/New Idea.md"); got != "# New Idea\nAppended.\n" {
			t.Errorf("append: %q", got)
		}
		if res := c.call(t, "update_note", map[string]any{"path": "Ideas/Other.md", "content": "x"}); !res.IsError || !strings.HasPrefix(res.text(), "NOT_FOUND: ") {
			t.Errorf("update_note of nothing: %q", res.text())
		}
		if r = obCall(t, c, "update_note", map[string]any{"path": "Ideas/Other.md", "content": "# Other\n", "create_if_not_exists": true}); r["operation"] != "created" {
			t.Errorf("create_if_not_exists: %v", r)
		}
		before = headOf(t, dir)
		if r = obCall(t, c, "delete_note", map[string]any{"path": "Ideas/Other.md"}); r["operation"] != "deleted" || r["success"] != true {
			t.Errorf("delete_note: %v", r)
		}
		oneCommit(t, dir, before, "delete_note")
	})

	t.Run("search and discovery", func(t *testing.T) {
		r := obCall(t, c, "search_notes", map[string]any{"query": "research", "max_results": 5})
		hasKeys(t, "search_notes", r, "results", "count", "query", "truncated")
		if got := paths(r["results"], "path"); !slices.Contains(got, "Projects/AI Research.md") {
			t.Errorf("search_notes research: %v", got)
		}
		for q, wantPaths := range map[string][]string{
			"tag:research":           {"Projects/AI Research.md"},
			"path:Daily/":            {"Daily/2024-01-15.md"},
			"property:status:active": {"Projects/AI Research.md"},
			"path:Projects/Old":      {"Projects/Old.md"},
			"quick path:Inbox/":      {"Inbox/Quick.md"},
		} {
			if got := paths(obCall(t, c, "search_notes", map[string]any{"query": q})["results"], "path"); !slices.Equal(got, wantPaths) {
				t.Errorf("search_notes %q: %v, want %v", q, got, wantPaths)
			}
		}
		r = obCall(t, c, "search_by_date", map[string]any{"days_ago": 1})
		if r["count"].(float64) < 5 {
			t.Errorf("search_by_date within a day: %v", r)
		}
		r = obCall(t, c, "search_by_regex", map[string]any{"pattern": `TODO:\s*\w+`})
		if got := paths(r["results"], "path"); !slices.Equal(got, []string{"Projects/AI Research.md"}) {
			t.Errorf("regex, case-sensitive: %v", got)
		}
		first := r["results"].([]any)[0].(map[string]any)["matches"].([]any)[0].(map[string]any)
		if first["match"] != "TODO: read" || first["line"] != 8.0 {
			t.Errorf("regex match: %v", first)
		}
		r = obCall(t, c, "search_by_regex", map[string]any{"pattern": `todo:`, "flags": []string{"ignorecase"}})
		if len(r["results"].([]any)) != 2 {
			t.Errorf("regex, ignorecase: %v", r)
		}
		if res := c.call(t, "search_by_regex", map[string]any{"pattern": `(unclosed`}); !res.IsError {
			t.Errorf("a bad regex: %q", res.text())
		}
		for _, tc := range []struct {
			args map[string]any
			want []string
		}{
			{map[string]any{"property_name": "status", "value": "active"}, []string{"Projects/AI Research.md"}},
			{map[string]any{"property_name": "priority", "operator": ">", "value": "2"}, []string{"Projects/AI Research.md"}},
			{map[string]any{"property_name": "priority", "operator": "exists"}, []string{"Projects/AI Research.md", "Projects/Old.md"}},
			{map[string]any{"property_name": "tags", "value": "archive"}, []string{"Projects/Old.md"}},
			{map[string]any{"property_name": "status", "operator": "!=", "value": "active"}, []string{"Projects/Old.md"}},
		} {
			if got := paths(obCall(t, c, "search_by_property", tc.args)["results"], "path"); !slices.Equal(got, tc.want) {
				t.Errorf("search_by_property %v: %v, want %v", tc.args, got, tc.want)
			}
		}
		r = obCall(t, c, "list_notes", map[string]any{})
		hasKeys(t, "list_notes", r, "items", "total", "scope")
		if r["total"].(float64) != 5 {
			t.Errorf("list_notes: %v", r)
		}
		if got := paths(obCall(t, c, "list_notes", map[string]any{"directory": "Projects", "recursive": false})["items"], "path"); !slices.Equal(got, []string{"Projects/AI Research.md", "Projects/Old.md"}) {
			t.Errorf("list_notes Projects: %v", got)
		}
		if got := paths(obCall(t, c, "list_folders", map[string]any{})["items"], "path"); !slices.Equal(got, []string{"Daily", "Ideas", "Inbox", "Projects"}) {
			t.Errorf("list_folders: %v", got)
		}
	})

	t.Run("organization", func(t *testing.T) {
		before := headOf(t, dir)
		r := obCall(t, c, "add_tags", map[string]any{"path": "Inbox/Quick.md", "tags": []string{"quick", "project/web"}})
		hasKeys(t, "add_tags", r, "success", "path", "operation", "tags")
		tags := r["tags"].(map[string]any)
		if r["operation"] != "added" || len(tags["before"].([]any)) != 0 || len(tags["after"].([]any)) != 2 || len(tags["changes"].(map[string]any)["added"].([]any)) != 2 {
			t.Errorf("add_tags: %v", r)
		}
		oneCommit(t, dir, before, "add_tags")
		r = obCall(t, c, "remove_tags", map[string]any{"path": "Inbox/Quick.md", "tags": []string{"quick"}})
		if r["operation"] != "removed" || len(r["tags"].(map[string]any)["changes"].(map[string]any)["removed"].([]any)) != 1 {
			t.Errorf("remove_tags: %v", r)
		}
		r = obCall(t, c, "update_tags", map[string]any{"path": "Inbox/Quick.md", "tags": []string{"inbox"}})
		if after := r["tags"].(map[string]any)["after"].([]any); len(after) != 1 || after[0] != "inbox" {
			t.Errorf("update_tags: %v", r)
		}
		r = obCall(t, c, "update_tags", map[string]any{"path": "Inbox/Quick.md", "tags": []string{"more"}, "merge": true})
		if after := r["tags"].(map[string]any)["after"].([]any); len(after) != 2 {
			t.Errorf("update_tags merge: %v", r)
		}
		info := obCall(t, c, "get_note_info", map[string]any{"path": "Projects/AI Research.md"})
		stats := info["details"].(map[string]any)["stats"].(map[string]any)
		if stats["has_images"] != true || stats["image_count"] != 2.0 || stats["link_count"] != 4.0 || stats["word_count"].(float64) < 8 {
			t.Errorf("get_note_info: %v", info)
		}
		if info = obCall(t, c, "get_note_info", map[string]any{"path": "Nowhere.md"}); info["details"].(map[string]any)["exists"] != false {
			t.Errorf("get_note_info of nothing: %v", info)
		}
		lt := obCall(t, c, "list_tags", map[string]any{"sort_by": "count"})
		hasKeys(t, "list_tags", lt, "items", "total", "scope")

		before = headOf(t, dir)
		r = obCall(t, c, "move_note", map[string]any{"source_path": "Daily/2024-01-15.md", "destination_path": "Archive/2024-01-15.md"})
		hasKeys(t, "move_note", r, "success", "source", "destination", "type", "details")
		if r["type"] != "note" || r["details"].(map[string]any)["links_updated"] != 1.0 {
			t.Errorf("move_note: %v", r)
		}
		oneCommit(t, dir, before, "move_note")
		if got := gittest.Git(t, dir, "show", "HEAD:Projects/AI Research.md"); !strings.Contains(got, "[[Archive/2024-01-15]]") {
			t.Errorf("the link was not updated:\n%s", got)
		}
		before = headOf(t, dir)
		r = obCall(t, c, "move_folder", map[string]any{"source_folder": "Archive", "destination_folder": "Old/Archive"})
		if r["type"] != "folder" || r["details"].(map[string]any)["items_moved"] != 1.0 {
			t.Errorf("move_folder: %v", r)
		}
		oneCommit(t, dir, before, "move_folder")
		before = headOf(t, dir)
		r = obCall(t, c, "create_folder", map[string]any{"folder_path": "Research/Studies/2024"})
		if r["details"].(map[string]any)["placeholder"] != "Research/Studies/2024/README.md" {
			t.Errorf("create_folder: %v", r)
		}
		oneCommit(t, dir, before, "create_folder")
		before = headOf(t, dir)
		obCall(t, c, "create_folder", map[string]any{"folder_path": "Empty", "create_placeholder": false})
		if headOf(t, dir) != before {
			t.Error("create_folder without a placeholder made a commit")
		}
	})

	t.Run("links and images", func(t *testing.T) {
		r := obCall(t, c, "get_backlinks", map[string]any{"path": "Projects/AI Research.md"})
		hasKeys(t, "get_backlinks", r, "findings", "summary", "target", "scope")
		if got := paths(r["findings"], "source_path"); !slices.Equal(got, []string{"Old/Archive/2024-01-15.md", "Projects/Old.md"}) {
			t.Errorf("get_backlinks: %v", r)
		}
		if ctx, _ := r["findings"].([]any)[0].(map[string]any)["context"].(string); !strings.Contains(ctx, "AI Research") {
			t.Errorf("backlink context: %v", r["findings"])
		}
		r = obCall(t, c, "get_outgoing_links", map[string]any{"path": "Projects/AI Research.md", "check_validity": true})
		if r["summary"].(map[string]any)["broken_links"] != 2.0 || r["summary"].(map[string]any)["total_links"] != 4.0 {
			t.Errorf("get_outgoing_links: %v", r)
		}
		r = obCall(t, c, "find_broken_links", map[string]any{})
		if r["summary"].(map[string]any)["broken_links"] != 2.0 {
			t.Errorf("find_broken_links: %v", r)
		}
		r = obCall(t, c, "find_broken_links", map[string]any{"single_note": "Projects/Old.md"})
		if r["summary"].(map[string]any)["broken_links"] != 0.0 {
			t.Errorf("find_broken_links in a note without: %v", r)
		}
		res := c.call(t, "read_image", map[string]any{"path": "diagram.png", "include_metadata": true})
		if res.IsError || len(res.Content) != 2 || res.Content[1].Type != "image" || !strings.Contains(res.text(), `"width": 1000`) {
			t.Errorf("read_image: %v %.200s", res.IsError, res.text())
		}
		res = c.call(t, "view_note_images", map[string]any{"path": "Projects/AI Research.md", "max_width": 400})
		if res.IsError || len(res.Content) != 2 || res.Content[1].Type != "image" || !strings.Contains(res.text(), `"width": 400`) || !strings.Contains(res.text(), "gone.png") {
			t.Errorf("view_note_images: %v %s", res.IsError, res.text())
		}
		if res = c.call(t, "view_note_images", map[string]any{"path": "Projects/AI Research.md", "image_index": 3}); !res.IsError {
			t.Errorf("image_index past the images: %s", res.text())
		}
	})
}
