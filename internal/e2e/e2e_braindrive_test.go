package e2e_test

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// bdJSON calls a BrainDrive tool that must succeed and decodes its
// structured content (already checked against the seed's output schema),
// checking that the text says the same.
func bdJSON(t *testing.T, c *tsClient, name string, args map[string]any) map[string]any {
	t.Helper()
	res := c.call(t, name, args)
	if res.IsError {
		t.Fatalf("%s %v: %s", name, args, res.text())
	}
	var out, text map[string]any
	if err := json.Unmarshal(res.StructuredContent, &out); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := json.Unmarshal([]byte(res.text()), &text); err != nil || !reflect.DeepEqual(out, text) {
		t.Errorf("%s: the text %q is not the structured content %s", name, res.text(), res.StructuredContent)
	}
	return out
}

// bdFails calls a BrainDrive tool that must fail with code, and checks
// that nothing was committed.
func bdFails(t *testing.T, c *tsClient, dir, name string, args map[string]any, code string) {
	t.Helper()
	before := headOf(t, dir)
	res := c.call(t, name, args)
	if !res.IsError || !strings.HasPrefix(res.text(), code+": ") {
		t.Errorf("%s %v: %v %q, want %s", name, args, res.IsError, res.text(), code)
	}
	if headOf(t, dir) != before {
		t.Errorf("%s %v failed, yet made a commit", name, args)
	}
}

// TestE2E_ProfileBrainDrive drives `wikid serve --profile braindrive` with
// the official TypeScript client, which checks every result against the
// seed's output schema, through each tool and guarantee of the seed.
func TestE2E_ProfileBrainDrive(t *testing.T) {
	t.Parallel()
	requireNode(t)
	dir := cairnRepo(t)
	gittest.Commit(t, dir, "more", map[string]string{"guides/setup.markdown": "# Setup\n\n## Install\n\nRun the installer.\n\n## Use\n\nOpen it.\n"})
	bridge := startBridge(t)
	c := connectTS(t, bridge, stdioRequest(wikidBin, "--repo", dir, "--profile", "braindrive"))
	c.seed = true
	checkSeedTools(t, c, "braindrive")

	t.Run("read_markdown", func(t *testing.T) {
		out := bdJSON(t, c, "read_markdown", map[string]any{"path": "entities/person/jamie.md"})
		want := gittest.Git(t, dir, "show", "HEAD:entities/person/jamie.md")
		meta := out["metadata"].(map[string]any)
		last := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%H", "--", "entities/person/jamie.md"))
		if out["content"] != want || meta["size"] != float64(len(want)) || meta["git_commit"] != last || meta["last_modified"] == "" {
			t.Errorf("read_markdown: %v; want the file, its size and last commit %s", out, last)
		}
		other := bdJSON(t, c, "read_markdown", map[string]any{"path": "guides/setup.markdown"})
		if !strings.HasPrefix(other["content"].(string), "# Setup") {
			t.Errorf("a .markdown file: %v", other)
		}
		bdFails(t, c, dir, "read_markdown", map[string]any{"path": "entities/person/jamie"}, "INVALID_PATH")
		bdFails(t, c, dir, "read_markdown", map[string]any{"path": "../outside.md"}, "INVALID_PATH")
		bdFails(t, c, dir, "read_markdown", map[string]any{"path": "/etc/passwd.md"}, "INVALID_PATH")
		bdFails(t, c, dir, "read_markdown", map[string]any{"path": "nobody.md"}, "NOT_FOUND")
		bdFails(t, c, dir, "read_markdown", map[string]any{"path": "a.md", "extra": true}, "INVALID_PARAMS")
	})

	t.Run("list_markdown_files", func(t *testing.T) {
		out := bdJSON(t, c, "list_markdown_files", map[string]any{"path": "entities"})
		if !reflect.DeepEqual(out["files"], []any{}) || !reflect.DeepEqual(out["folders"], []any{"entities/company", "entities/person"}) {
			t.Errorf("entities: %v", out)
		}
		deep := bdJSON(t, c, "list_markdown_files", map[string]any{"path": "entities", "recursive": true})
		if len(deep["files"].([]any)) != 3 {
			t.Errorf("entities, recursive: %v", deep)
		}
		root := bdJSON(t, c, "list_markdown_files", map[string]any{"path": ""})
		if !reflect.DeepEqual(root["folders"], []any{"daily", "entities", "guides", "projects"}) {
			t.Errorf("root: %v", root)
		}
		bdFails(t, c, dir, "list_markdown_files", map[string]any{"path": "nowhere"}, "NOT_FOUND")
		bdFails(t, c, dir, "list_markdown_files", map[string]any{}, "INVALID_PARAMS")
	})

	t.Run("search_markdown", func(t *testing.T) {
		out := bdJSON(t, c, "search_markdown", map[string]any{"query": "launch"})
		results := out["results"].([]any)
		var files []string
		for _, r := range results {
			r := r.(map[string]any)
			files = append(files, r["path"].(string))
			for _, m := range r["matches"].([]any) {
				m := m.(map[string]any)
				line := int(m["line"].(float64))
				got := strings.Split(gittest.Git(t, dir, "show", "HEAD:"+r["path"].(string)), "\n")[line-1]
				if got != m["snippet"] {
					t.Errorf("%s line %d is %q, the match says %q", r["path"], line, got, m["snippet"])
				}
			}
		}
		if want := gitGrep(t, dir, "launch"); len(files) != len(want) {
			t.Errorf("search_markdown launch: %v; git grep -il: %v", files, want)
		}
		one := bdJSON(t, c, "search_markdown", map[string]any{"query": "Install", "path": "guides/setup.markdown"})
		if r := one["results"].([]any); len(r) != 1 || r[0].(map[string]any)["path"] != "guides/setup.markdown" {
			t.Errorf("in one file: %v", one)
		}
		in := bdJSON(t, c, "search_markdown", map[string]any{"query": "launch", "path": "daily"})
		if r := in["results"].([]any); len(r) != 1 || r[0].(map[string]any)["path"] != "daily/2026-02-24.md" {
			t.Errorf("in a folder: %v", in)
		}
	})

	t.Run("preview equals the edit", func(t *testing.T) {
		for _, op := range []map[string]any{
			{"type": "append", "content": "Appended."},
			{"type": "prepend", "content": "Prepended."},
			{"type": "replace_section", "target": "Install", "content": "Download it, then run it."},
			{"type": "insert_before", "target": "## Use", "content": "## Check\n\nIt runs.\n"},
			{"type": "insert_after", "target": "Use", "content": "## Uninstall\n\nDelete it."},
		} {
			args := map[string]any{"path": "guides/setup.markdown", "operation": op}
			before := headOf(t, dir)
			preview := bdJSON(t, c, "preview_markdown_change", args)
			if headOf(t, dir) != before {
				t.Fatalf("the preview of %v made a commit", op)
			}
			if !slicesContain([]string{"low", "medium", "high"}, preview["risk_level"].(string)) || preview["summary"] == "" {
				t.Errorf("preview %v: %v", op, preview)
			}
			out := bdJSON(t, c, "edit_markdown", args)
			if out["success"] != true || out["git_commit_sha"] != headOf(t, dir) {
				t.Errorf("edit_markdown %v: %v", op, out)
			}
			oneCommit(t, dir, before, "edit_markdown")
			// The preview's diff is the commit's.
			diff := gittest.Git(t, dir, "diff", before, "HEAD", "--", "guides/setup.markdown")
			if !sameHunks(preview["diff"].(string), diff) {
				t.Errorf("preview of %v:\n%s\ngit diff:\n%s", op, preview["diff"], diff)
			}
		}
		bdFails(t, c, dir, "edit_markdown", map[string]any{"path": "guides/setup.markdown", "operation": map[string]any{"type": "replace_section", "content": "x"}}, "INVALID_PARAMS")
		bdFails(t, c, dir, "edit_markdown", map[string]any{"path": "guides/setup.markdown", "operation": map[string]any{"type": "replace_section", "target": "Nowhere", "content": "x"}}, "NOT_FOUND")
		bdFails(t, c, dir, "edit_markdown", map[string]any{"path": "guides/setup.markdown", "operation": map[string]any{"type": "delete_section", "target": "Use", "content": ""}}, "INVALID_PARAMS")
		bdFails(t, c, dir, "preview_markdown_change", map[string]any{"path": "nobody.md", "operation": map[string]any{"type": "append", "content": "x"}}, "NOT_FOUND")
	})

	t.Run("write_markdown and delete_markdown", func(t *testing.T) {
		before := headOf(t, dir)
		out := bdJSON(t, c, "write_markdown", map[string]any{"path": "inbox/idea.md", "content": "# Idea\n"})
		if out["success"] != true || out["git_commit_sha"] != headOf(t, dir) {
			t.Errorf("write_markdown: %v", out)
		}
		oneCommit(t, dir, before, "write_markdown")
		bdFails(t, c, dir, "write_markdown", map[string]any{"path": "inbox/idea.txt", "content": "x"}, "INVALID_PATH")
		bdFails(t, c, dir, "delete_markdown", map[string]any{"path": "inbox/idea.md", "confirm": false}, "INVALID_PARAMS")
		bdFails(t, c, dir, "delete_markdown", map[string]any{"path": "inbox/idea.md"}, "INVALID_PARAMS")
		before = headOf(t, dir)
		out = bdJSON(t, c, "delete_markdown", map[string]any{"path": "inbox/idea.md", "confirm": true})
		if out["success"] != true || out["git_commit_sha"] != headOf(t, dir) {
			t.Errorf("delete_markdown: %v", out)
		}
		oneCommit(t, dir, before, "delete_markdown")
	})

	t.Run("get_markdown_activity_log", func(t *testing.T) {
		out := bdJSON(t, c, "get_markdown_activity_log", map[string]any{"limit": 3})
		entries := out["entries"].([]any)
		log := strings.Fields(gittest.Git(t, dir, "log", "-3", "--format=%H"))
		if len(entries) != 3 {
			t.Fatalf("limit 3: %v", out)
		}
		first := entries[0].(map[string]any)
		if first["git_commit_sha"] != log[0] || first["operation"] != "delete_markdown" || first["path"] != "inbox/idea.md" {
			t.Errorf("the newest entry: %v", first)
		}
		all := bdJSON(t, c, "get_markdown_activity_log", map[string]any{})
		n, _ := strconv.Atoi(strings.TrimSpace(gittest.Git(t, dir, "rev-list", "--count", "HEAD")))
		if got := len(all["entries"].([]any)); got != min(n, 50) {
			t.Errorf("default limit: %d entries, git has %d commits", got, n)
		}
	})
}

func slicesContain(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// sameHunks reports whether two unified diffs have the same hunks, file
// headers and the function context git adds to hunk headers aside.
func sameHunks(a, b string) bool {
	header := regexp.MustCompile(`(?m)^(@@ [^@]+ @@).*$`)
	hunks := func(d string) string {
		i := strings.Index(d, "\n@@")
		if i < 0 {
			return d
		}
		return strings.TrimSpace(header.ReplaceAllString(d[i+1:], "$1"))
	}
	return hunks(a) == hunks(b)
}
