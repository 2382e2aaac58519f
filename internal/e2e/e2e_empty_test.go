package e2e_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// emptyCase is one call of a tool in its empty case: no hits, no links, no
// history, an empty folder.
type emptyCase struct {
	tool string
	args map[string]any
}

// emptyCases call every tool where its answer has nothing to list. They run
// in order over emptyRepo: the mutations come last and build on each other.
var emptyCases = []emptyCase{
	{"read_note", map[string]any{"path": "lonely"}},
	{"read_note", map[string]any{"path": "lonely", "metadata_only": true}},
	{"read_note", map[string]any{"path": "blank"}},
	{"search_notes", map[string]any{"query": "zzqqxx"}},
	{"gather_context", map[string]any{"question": "What about zzqqxx?"}},
	{"sync_wiki", map[string]any{}},
	{"search_notes", map[string]any{"tags": []any{"no-such-tag"}}},
	{"grep_notes", map[string]any{"pattern": "zzqqxx"}},
	{"list_notes", map[string]any{"path": "", "tag": "no-such-tag"}},
	{"list_notes", map[string]any{"path": "shelf"}},
	{"list_tags", map[string]any{"prefix": "no-such-tag"}},
	{"recent_changes", map[string]any{"since": "2999-01-01"}},
	{"resolve_notes", map[string]any{"names": []any{"no such note"}}},
	{"random_note", map[string]any{}},
	{"get_links", map[string]any{"path": "lonely", "direction": "both"}},
	{"get_links", map[string]any{"path": "lonely", "direction": "in"}},
	{"get_links", map[string]any{"path": "no/such/note", "direction": "both", "depth": 2}},
	{"find_path", map[string]any{"source": "lonely", "target": "blank"}},
	{"get_hubs", map[string]any{"folder": "shelf"}},
	{"find_broken_links", map[string]any{"include_orphans": true, "folder": "shelf"}},
	{"find_broken_links", map[string]any{}},
	{"wiki_status", map[string]any{}},
	{"note_history", map[string]any{"path": "blank"}},
	{"diff_versions", map[string]any{"path": "lonely", "from": "HEAD", "to": "HEAD"}},
	{"diff_versions", map[string]any{"from": "HEAD", "to": "HEAD"}},
	{"blame_note", map[string]any{"path": "blank"}},
	{"activity_log", map[string]any{"since": "2999-01-01"}},
	{"daily_note", map[string]any{"date": "2024-01-01", "op": "append", "content": "plain"}},
	{"daily_note", map[string]any{"date": "2024-01-01"}},
	{"apply_changes", map[string]any{"dry_run": true, "changes": []any{
		map[string]any{"tool": "write_note", "arguments": map[string]any{"path": "planned", "content": "plain\n"}},
	}}},
	{"write_note", map[string]any{"path": "fresh", "content": "plain\n"}},
	{"edit_note", map[string]any{"path": "fresh", "edits": []any{map[string]any{"op": "append", "content": "more"}}}},
	{"update_metadata", map[string]any{"path": "fresh", "title": "Fresh"}},
	{"move_note", map[string]any{"path": "fresh", "new_path": "moved"}},
	{"delete_note", map[string]any{"path": "moved", "confirm": true}},
	{"restore_note", map[string]any{"path": "moved"}},
	{"revert_change", map[string]any{"commit": "HEAD", "dry_run": true}},
}

// emptyRepo is a wiki with nothing to list: notes without tags, links or
// headings, an empty note, and a folder that holds no note.
func emptyRepo(tb testing.TB) string {
	tb.Helper()
	dir := gittest.Init(tb)
	gittest.Commit(tb, dir, "start", map[string]string{
		"lonely.md":        "Nothing links here, and this links nowhere.\n",
		"blank.md":         "",
		"shelf/scan.txt":   "not a note\n",
		"shelf/inner/x.md": "Inner note.\n",
	})
	bare := gittest.InitBare(tb)
	gittest.Git(tb, dir, "remote", "add", "origin", bare)
	gittest.Git(tb, dir, "push", "-q", "-u", "origin", "HEAD:main")
	return dir
}

// TestE2E_EmptyResults calls every tool in its empty case through the
// official TypeScript client, which validates the structured content
// against the tool's output schema: every list is [], never null.
func TestE2E_EmptyResults(t *testing.T) {
	t.Parallel()
	dir := emptyRepo(t)
	c := connectTS(t, startBridge(t), stdioRequest(wikidBin, "--repo", dir))
	c.listTools(t)
	waitIndexedTS(t, c)

	covered := map[string]bool{}
	for _, tc := range emptyCases {
		covered[tc.tool] = true
	}
	var listed []string
	for name := range c.tools {
		listed = append(listed, name)
		if !covered[name] && !slices.Contains(contentOnlyTools, name) { // an image has no empty case
			t.Errorf("%s has no empty case in emptyCases", name)
		}
	}
	sort.Strings(listed)
	if len(listed) != len(allTools) || !slices.Equal(listed, allTools) {
		t.Errorf("tools/list %v, want %v", listed, allTools)
	}

	for i, tc := range emptyCases {
		t.Run(fmt.Sprintf("%d_%s", i, tc.tool), func(t *testing.T) {
			res, err := c.tryCall(tc.tool, tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError {
				t.Fatalf("%s %v failed: %s", tc.tool, tc.args, res.text())
			}
			if p := nullAt(t, res.StructuredContent); p != "" {
				t.Errorf("%s: null at %s:\n%s", tc.tool, p, res.StructuredContent)
			}
		})
	}
}

// nullAt returns the JSON path of the first null in raw, "" if none.
func nullAt(tb testing.TB, raw json.RawMessage) string {
	tb.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		tb.Fatal(err)
	}
	var walk func(v any, at string) string
	walk = func(v any, at string) string {
		switch v := v.(type) {
		case nil:
			return at
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if p := walk(v[k], at+"."+k); p != "" {
					return p
				}
			}
		case []any:
			for i, e := range v {
				if p := walk(e, fmt.Sprintf("%s[%d]", at, i)); p != "" {
					return p
				}
			}
		}
		return ""
	}
	return walk(v, "$")
}
