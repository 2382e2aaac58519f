package tools_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/tools/toolstest"
	"github.com/wikid/wikid/internal/wiki"
)

// validArgs are arguments that every tool taking them accepts on the
// fixture wiki; the error walk breaks one at a time. Mutating tools get
// dry_run, so that nothing the walk lets through commits.
var validArgs = map[string]any{
	"path": "projects/alpha/plan", "new_path": "projects/alpha/plan-moved", "content": "x\n",
	"source": "index", "target": "projects/alpha/plan", "names": []any{"Alice"}, "pattern": "alpha",
	"commit": "HEAD", "from": "HEAD~0", "confirm": true, "question": "What are the alpha milestones?",
	"edits":   []any{map[string]any{"op": "append", "content": "x"}},
	"changes": []any{map[string]any{"tool": "write_note", "arguments": map[string]any{"path": "fresh", "content": "x"}}},
}

// extraArgs make a tool's base call one that the walk can break: a write
// of daily_note rather than a read, which takes no dry_run.
var extraArgs = map[string]map[string]any{
	"daily_note": {"op": "append", "content": "x", "date": "2024-03-11"},
}

// badValues are what the walk tries for an argument of a JSON type besides
// a value of another type.
var badValues = map[string][]any{
	"string":  {"", "../escape", "no/such/note", "zz-no-such-revision", "(", "yesterday", "\x00"},
	"integer": {-1, 0, 1e9 + 1, 1.5},
	"number":  {-1, 2},
	"boolean": {"yes"},
	"array":   {[]any{}, []any{5}, []any{"../escape"}, []any{map[string]any{"op": "explode"}}},
	"object":  {map[string]any{"no_such_key": 1}, map[string]any{"": []any{}}},
}

// errorCall is one call that must fail.
type errorCall struct {
	tool string
	args map[string]any
}

// handErrorCalls reach the errors a broken argument alone does not: state
// (conflicts, existing notes, local changes, revisions) and nested
// arguments.
func handErrorCalls(dir string) []errorCall {
	edit := func(e map[string]any) []any { return []any{e} }
	return []errorCall{
		{"read_note", map[string]any{"path": "projects/alpha/plan", "version": "0123456789abcdef0123456789abcdef01234567"}},
		{"read_note", map[string]any{"path": "projects/alpha/plan", "version": "no-such-rev"}},
		{"read_note", map[string]any{"path": "projects/alpha/plan", "section": "No such heading"}},
		{"read_note", map[string]any{"path": "projects/alpha/plan", "offset": 1 << 30}},
		{"write_note", map[string]any{"path": "index", "content": "x"}},
		{"write_note", map[string]any{"path": "index", "content": "x", "overwrite": true, "expected_version": "0000000"}},
		{"write_note", map[string]any{"path": "local", "content": "x"}},
		{"edit_note", map[string]any{"path": "index", "edits": edit(map[string]any{"op": "explode"})}},
		{"edit_note", map[string]any{"path": "index", "edits": edit(map[string]any{"op": "replace", "find": "no such text", "content": "x"})}},
		{"edit_note", map[string]any{"path": "projects/alpha/plan", "edits": edit(map[string]any{"op": "replace", "find": "### Technical", "content": "x"})}},
		{"edit_note", map[string]any{"path": "index", "edits": edit(map[string]any{"op": "replace_section", "section": "No such heading", "content": "x"})}},
		{"edit_note", map[string]any{"path": "index", "edits": edit(map[string]any{"op": "append"})}},
		{"edit_note", map[string]any{"path": "local", "edits": edit(map[string]any{"op": "append", "content": "x"})}},
		{"update_metadata", map[string]any{"path": "index", "tags": []any{"a"}, "add_tags": []any{"b"}}},
		{"update_metadata", map[string]any{"path": "index"}},
		{"move_note", map[string]any{"path": "index", "new_path": "projects/alpha/plan"}},
		{"move_note", map[string]any{"path": "index", "new_path": "index"}},
		{"move_note", map[string]any{"path": "no/such/folder", "new_path": "elsewhere"}},
		{"delete_note", map[string]any{"path": "index"}},
		{"delete_note", map[string]any{"path": "index", "confirm": false}},
		{"daily_note", map[string]any{"date": "1999-01-01"}},
		{"daily_note", map[string]any{"op": "explode", "content": "x"}},
		{"daily_note", map[string]any{"op": "append"}},
		{"daily_note", map[string]any{"op": "read", "content": "x"}},
		{"daily_note", map[string]any{"op": "read", "dry_run": true}},
		{"daily_note", map[string]any{"op": "append_section", "content": "x", "date": "2024-03-11", "section": "No such heading"}},
		{"apply_changes", map[string]any{"changes": []any{map[string]any{"tool": "read_note", "arguments": map[string]any{"path": "index"}}}}},
		{"apply_changes", map[string]any{"changes": []any{map[string]any{"tool": "write_note", "arguments": map[string]any{"path": "index", "content": "x"}}}}},
		{"apply_changes", map[string]any{"changes": []any{map[string]any{"tool": "write_note", "arguments": map[string]any{"bogus": 1}}}}},
		{"search_notes", map[string]any{}},
		{"search_notes", map[string]any{"query": "colour:red AND ("}},
		{"search_notes", map[string]any{"query": "alpha", "cursor": "bm90IGEgY3Vyc29y"}},
		{"grep_notes", map[string]any{"pattern": "(", "regex": true}},
		{"list_notes", map[string]any{"path": "no-such-folder"}},
		{"list_notes", map[string]any{"cursor": "x"}},
		{"recent_changes", map[string]any{"cursor": "x"}},
		{"resolve_notes", map[string]any{"names": []any{"x"}, "strategy": "semantic"}},
		{"random_note", map[string]any{"tags": []any{"no-such-tag"}}},
		{"get_links", map[string]any{"path": "../x"}},
		{"find_path", map[string]any{"source": "no/such/note", "target": "index"}},
		{"find_broken_links", map[string]any{"cursor": "x"}},
		{"note_history", map[string]any{"path": "no/such/note"}},
		{"note_history", map[string]any{"path": "index", "cursor": "x"}},
		{"diff_versions", map[string]any{"from": "no-such-rev"}},
		{"diff_versions", map[string]any{"path": "index", "from": "HEAD", "to": "no-such-rev"}},
		{"diff_versions", map[string]any{"path": "no/such/note", "from": "HEAD"}},
		{"blame_note", map[string]any{"path": "index", "section": "No such heading"}},
		{"blame_note", map[string]any{"path": "no/such/note"}},
		{"activity_log", map[string]any{"since": "2024-02-01", "until": "2024-01-01"}},
		{"activity_log", map[string]any{"cursor": "x"}},
		{"restore_note", map[string]any{"path": "index", "version": "no-such-rev"}},
		{"restore_note", map[string]any{"path": "no/such/note"}},
		{"revert_change", map[string]any{"commit": "no-such-rev"}},
		{"revert_change", map[string]any{"commit": "0123456789abcdef0123456789abcdef01234567"}},
	}
}

// TestServer_ErrorHints walks the error paths of every tool: each argument
// broken in every way its schema allows, then the errors that depend on the
// wiki's state. Every error must carry a hint, in the structured error and
// in the text.
func TestServer_ErrorHints(t *testing.T) {
	dir := toolstest.FixtureRepo(t)
	// An uncommitted change in the checkout, for LOCAL_CHANGES.
	if err := os.WriteFile(filepath.Join(dir, "local.md"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := toolstest.NewSession(t, toolstest.ConnectHTTP(t, toolstest.ServeHTTP(t, toolstest.OpenWiki(t, dir, nil), mcpserver.Options{}, mcpserver.HTTPOptions{}), nil, ""))
	toolstest.WaitIndexed(t, s)
	head := toolstest.Git(t, dir, "rev-parse", "HEAD")

	var calls []errorCall
	names := make([]string, 0, len(s.Tools))
	for name := range s.Tools {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		in := s.Tools[name].InputSchema
		base := map[string]any{}
		for _, r := range in.Required {
			v, ok := validArgs[r]
			if !ok {
				t.Errorf("%s: no valid value for the required argument %s in validArgs", name, r)
			}
			base[r] = v
		}
		if _, ok := in.Properties["dry_run"]; ok {
			base["dry_run"] = true
		}
		for k, v := range extraArgs[name] {
			base[k] = v
		}
		calls = append(calls, errorCall{name, toolstest.With(base, "no_such_argument", 1)})
		for _, r := range in.Required {
			calls = append(calls, errorCall{name, toolstest.Without(base, r)})
		}
		for p, ps := range in.Properties {
			typ, _ := ps.(map[string]any)["type"].(string)
			wrong := any(map[string]any{})
			if typ == "object" {
				wrong = "text"
			}
			calls = append(calls, errorCall{name, toolstest.With(base, p, wrong)}, errorCall{name, toolstest.With(base, p, nil)})
			if p == "dry_run" {
				continue // the walk must not commit
			}
			for _, v := range badValues[typ] {
				calls = append(calls, errorCall{name, toolstest.With(base, p, v)})
			}
		}
	}
	calls = append(calls, handErrorCalls(dir)...)

	failed := map[string]map[string]int{} // tool → code → calls
	for _, c := range calls {
		res := s.Call(c.tool, c.args)
		if !res.IsError {
			continue
		}
		var shape struct {
			Error struct {
				Code string `json:"code"`
				Hint string `json:"hint"`
			} `json:"error"`
		}
		if err := json.Unmarshal(toolstest.StructuredJSON(t, res), &shape); err != nil {
			t.Fatal(err)
		}
		if failed[c.tool] == nil {
			failed[c.tool] = map[string]int{}
		}
		failed[c.tool][shape.Error.Code]++
		if strings.TrimSpace(shape.Error.Hint) == "" || !strings.Contains(toolstest.Text(res), " Hint: ") {
			t.Errorf("%s %s: %s has no hint", c.tool, toolstest.JSONOf(t, c.args), toolstest.Text(res))
		}
	}
	for _, name := range names {
		if len(failed[name]) == 0 {
			t.Errorf("%s: no call failed", name)
		}
	}
	var codes []string
	for _, byCode := range failed {
		for code := range byCode {
			if !slices.Contains(codes, code) {
				codes = append(codes, code)
			}
		}
	}
	sort.Strings(codes)
	t.Logf("%d calls; error codes seen: %v", len(calls), codes)
	for _, want := range []wiki.Code{wiki.CodeInvalidParams, wiki.CodeInvalidPath, wiki.CodeInvalidQuery, wiki.CodeNotFound,
		wiki.CodeAlreadyExists, wiki.CodeConflict, wiki.CodeAmbiguous, wiki.CodeLocalChanges} {
		if !slices.Contains(codes, string(want)) {
			t.Errorf("no call reached %s", want)
		}
	}
	if got := toolstest.Git(t, dir, "rev-parse", "HEAD"); got != head {
		t.Errorf("the error walk committed: HEAD %s -> %s", head, got)
	}
}
