package e2e_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/tools"
	"github.com/wikid/wikid/internal/wiki"
)

// allTools is the tool set of TOOLS.md that exists so far.
var allTools = []string{
	"activity_log", "apply_changes", "blame_note", "daily_note", "delete_note", "diff_versions", "edit_note",
	"find_broken_links", "find_path", "gather_context", "get_hubs", "get_links", "grep_notes", "list_notes", "list_tags", "move_note",
	"note_history", "random_note", "read_image", "read_note", "recent_changes", "resolve_notes", "restore_note", "revert_change",
	"search_notes", "sync_wiki", "update_metadata", "wiki_status", "write_note",
}

// contentOnlyTools answer in content, with no output schema and no
// structured content: an image would be hidden from the model by clients
// that pass it only the structured content when there is some.
var contentOnlyTools = []string{"read_image"}

// mutatingTools change the wiki.
var mutatingTools = []string{"apply_changes", "daily_note", "delete_note", "edit_note", "move_note", "restore_note",
	"revert_change", "sync_wiki", "update_metadata", "write_note"}

// readingTools are the mutating tools that also read: a read-only server
// lists them as read-only and serves their reads.
var readingTools = []string{"daily_note"}

// plainArgs are arguments whose name, type, enum and default say what they
// take: they need no description of their own.
var plainArgs = []string{"aliases", "backlinks_to", "case_sensitive", "content", "context", "direction",
	"follow_renames", "include_content", "max_chars", "max_depth", "modified_since", "new_path", "pattern",
	"prefix", "properties", "recursive", "sort", "threshold", "unset", "until", "update_links"}

// undocumentedArgs lists the arguments of props, a tool's input schema
// properties, that a model learns nothing about: without a description,
// plain or named in desc, the tool's description, or in the server's
// instructions, which explain the arguments many tools share.
func undocumentedArgs(desc string, props map[string]any) []string {
	var missing []string
	for p, v := range props {
		if d, _ := v.(map[string]any)["description"].(string); d != "" || slices.Contains(plainArgs, p) {
			continue
		}
		named := regexp.MustCompile(`(^|[^a-z0-9_])` + regexp.QuoteMeta(p) + `([^a-z0-9_]|$)`)
		if !named.MatchString(desc) && !named.MatchString(tools.Profile().Instructions) {
			missing = append(missing, p)
		}
	}
	slices.Sort(missing)
	return missing
}

// changeArgs are arguments with which a mutating tool changes the wiki, for
// the READ_ONLY checks.
func changeArgs(tool string) map[string]any {
	if tool == "sync_wiki" {
		return map[string]any{}
	}
	if tool == "daily_note" {
		return map[string]any{"op": "append", "content": "x"}
	}
	return map[string]any{"path": "index", "content": "x"}
}

// runSuite drives every tool of a server over the fixture wiki at dir, as a
// client would, and checks the results against the repository with the
// git CLI. It runs over every transport.
func runSuite(t *testing.T, s *session, dir string) {
	waitIndexed(t, s)
	t.Run("tools/list", func(t *testing.T) { checkToolList(t, s, false) })
	t.Run("reads", func(t *testing.T) { checkReads(t, s, dir) })
	t.Run("bad arguments", func(t *testing.T) { checkBadArguments(t, s, dir) })
	t.Run("mutations", func(t *testing.T) { checkMutations(t, s, dir) })
}

func checkToolList(t *testing.T, s *session, readOnly bool) {
	want := allTools
	if readOnly {
		want = slices.DeleteFunc(slices.Clone(allTools), func(n string) bool {
			return slices.Contains(mutatingTools, n) && !slices.Contains(readingTools, n)
		})
	}
	var names []string
	for n := range s.Tools {
		names = append(names, n)
	}
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Fatalf("tools %v\nwant  %v", names, want)
	}
	for _, name := range names {
		tl := s.Tools[name]
		if len(tl.Description) < 60 || !strings.Contains(strings.ToLower(tl.Description), "use") {
			t.Errorf("%s: the description should say what it does and when to use it: %q", name, tl.Description)
		}
		in, err := json.Marshal(tl.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		compileSchema(t, name+".input", tl.InputSchema)
		var schema map[string]any
		json.Unmarshal(in, &schema)
		checkClosed(t, name, "input", schema)
		props, _ := schema["properties"].(map[string]any)
		for _, p := range undocumentedArgs(tl.Description, props) {
			t.Errorf("%s: argument %s is explained nowhere: describe it, or name it in the tool's description", name, p)
		}
		for _, r := range tl.InputSchema.Required {
			if _, ok := props[r]; !ok {
				t.Errorf("%s: required %s is no property", name, r)
			}
		}
		if tl.OutputSchema.Type != "object" && !slices.Contains(contentOnlyTools, name) {
			t.Errorf("%s: no output schema", name)
		}
		a := tl.Annotations
		mutating := slices.Contains(mutatingTools, name) && !(readOnly && slices.Contains(readingTools, name))
		// Absent hints take the specification's defaults.
		readOnlyHint, destructive := hint(a.ReadOnlyHint, false), hint(a.DestructiveHint, true)
		if readOnlyHint == mutating || hint(a.OpenWorldHint, true) ||
			mutating && destructive != (name == "delete_note" || name == "apply_changes") {
			t.Errorf("%s: annotations %+v", name, a)
		}
		if slices.Contains(mutatingTools, name) && name != "sync_wiki" { // a sync changes no note of its own
			for _, p := range []string{"dry_run", "message"} {
				if _, ok := props[p]; !ok {
					t.Errorf("%s lacks %s", name, p)
				}
			}
			if _, ok := props["expected_version"]; !ok && name != "apply_changes" && name != "revert_change" {
				t.Errorf("%s lacks expected_version", name)
			}
		}
	}
}

// checkClosed fails for an object schema, at any depth, that admits
// unknown keys without saying what their values are.
func checkClosed(t *testing.T, tool, at string, s map[string]any) {
	t.Helper()
	if s["type"] == "object" {
		props, _ := s["properties"].(map[string]any)
		if ap, ok := s["additionalProperties"]; !ok || (ap != false && len(props) > 0) {
			t.Errorf("%s: %s: additionalProperties is %v, want false", tool, at, ap)
		}
		for name, p := range props {
			if m, ok := p.(map[string]any); ok {
				checkClosed(t, tool, at+"."+name, m)
			}
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		checkClosed(t, tool, at+"[]", items)
	}
}

func checkReads(t *testing.T, s *session, dir string) {
	head := git(t, dir, "rev-parse", "HEAD")
	plan, err := os.ReadFile(filepath.Join(dir, "projects", "alpha", "plan.md"))
	if err != nil {
		t.Fatal(err)
	}

	t.Run("read_note", func(t *testing.T) {
		r, txt := ok[wiki.ReadResult](s, "read_note", map[string]any{"path": "projects/alpha/plan"})
		if r.Title != "Alpha plan" || r.Content != string(plan) || r.Commit != head ||
			r.Version != git(t, dir, "rev-parse", "HEAD:projects/alpha/plan.md") || r.Truncated {
			t.Errorf("read %+v", r)
		}
		if !strings.HasPrefix(txt, "# Alpha plan\npath: projects/alpha/plan · version "+r.Version[:7]) || !strings.HasSuffix(txt, "\n---\n"+strings.TrimRight(string(plan), "\n")) {
			t.Errorf("text:\n%s", txt)
		}
		r, txt = ok[wiki.ReadResult](s, "read_note", map[string]any{"path": "projects/alpha/plan.md", "max_chars": 100, "offset": 10})
		if r.Content != string([]rune(string(plan))[10:110]) || !r.Truncated || r.NextOffset != 110 || r.TotalChars != len([]rune(string(plan))) {
			t.Errorf("window %+v", r)
		}
		if !strings.Contains(txt, "read on with offset 110") {
			t.Errorf("text of a cut read:\n%s", txt)
		}
		r, _ = ok[wiki.ReadResult](s, "read_note", map[string]any{"path": "projects/alpha/plan", "section": "Risks/People"})
		if r.Section != "People" || !strings.HasPrefix(r.Content, "### People\n") {
			t.Errorf("section %+v", r)
		}
		r, txt = ok[wiki.ReadResult](s, "read_note", map[string]any{"path": "index", "metadata_only": true})
		if r.Content != "" || r.Title != "Home" || len(r.Headings) == 0 || !strings.Contains(txt, "outline:") {
			t.Errorf("metadata %+v\n%s", r, txt)
		}
	})

	t.Run("search_notes", func(t *testing.T) {
		res, txt := ok[wiki.SearchResult](s, "search_notes", map[string]any{"query": "milestones", "limit": 100})
		var paths []string
		for _, h := range res.Results {
			paths = append(paths, h.Path)
			if len(h.Snippets) == 0 {
				t.Errorf("%s has no snippet", h.Path)
			}
		}
		slices.Sort(paths)
		// A word finds its other forms.
		if want := notesWithWord(t, dir, "milestones", "milestone"); !slices.Equal(paths, want) || res.Total != len(want) {
			t.Errorf("hits %v (total %d), want %v", paths, res.Total, want)
		}
		if !strings.HasPrefix(txt, "Found ") || !strings.Contains(txt, "(projects/alpha/plan)") || !strings.Contains(txt, "«") {
			t.Errorf("text:\n%s", txt)
		}
		page, _ := ok[wiki.SearchResult](s, "search_notes", map[string]any{"tags": []any{"project/alpha"}, "sort": "title", "limit": 2})
		if len(page.Results) != 2 || page.NextCursor == "" || page.Total != 4 {
			t.Fatalf("first page %+v", page)
		}
		next, _ := ok[wiki.SearchResult](s, "search_notes", map[string]any{"tags": []any{"project/alpha"}, "sort": "title", "limit": 2, "cursor": page.NextCursor})
		if len(next.Results) != 2 || next.NextCursor != "" || next.Results[0].Path == page.Results[0].Path {
			t.Errorf("second page %+v", next)
		}
	})

	t.Run("grep_notes", func(t *testing.T) {
		res, txt := ok[wiki.GrepResult](s, "grep_notes", map[string]any{"pattern": "[[alice]]"})
		var got []string
		for _, m := range res.Matches {
			got = append(got, m.Path+":"+strconv.Itoa(m.Line)+":"+m.Text)
		}
		want := gitGrep(t, dir, "[[alice]]")
		if !slices.Equal(got, want) || res.Truncated {
			t.Errorf("grep\n got %v\nwant %v", got, want)
		}
		if !strings.Contains(txt, "projects/alpha/plan:40: ") {
			t.Errorf("text:\n%s", txt)
		}
	})

	t.Run("list_notes", func(t *testing.T) {
		res, txt := ok[wiki.ListResult](s, "list_notes", map[string]any{"path": "projects"})
		want := []wiki.FolderSummary{{Path: "projects/alpha", Notes: 4}, {Path: "projects/beta", Notes: 3}}
		if !slices.Equal(res.Folders, want) || len(res.Notes) != 0 || res.Total != 0 {
			t.Errorf("list %+v", res)
		}
		if !strings.Contains(txt, "- projects/alpha/ (4 notes)") {
			t.Errorf("text:\n%s", txt)
		}
		res, _ = ok[wiki.ListResult](s, "list_notes", map[string]any{"path": "projects/alpha", "sort": "alpha"})
		var paths []string
		for _, n := range res.Notes {
			paths = append(paths, n.Path)
		}
		if !slices.Equal(paths, []string{"projects/alpha/decisions", "projects/alpha/meeting-notes", "projects/alpha/overview", "projects/alpha/plan"}) {
			t.Errorf("notes %v", paths)
		}
	})

	t.Run("list_tags", func(t *testing.T) {
		out, txt := ok[tagsOut](s, "list_tags", map[string]any{"prefix": "project"})
		want := tagOracle(t, dir, "project")
		if len(want) == 0 {
			t.Fatal("the oracle found no tags: the test would not test anything")
		}
		if !slices.Equal(out.Tags, want) || out.Total != len(want) || out.NextCursor != "" {
			t.Errorf("tags %+v\nwant %+v", out, want)
		}
		if !strings.Contains(txt, "- project/alpha (4 notes)") {
			t.Errorf("text:\n%s", txt)
		}
		page, _ := ok[tagsOut](s, "list_tags", map[string]any{"prefix": "project", "limit": 2})
		rest, _ := ok[tagsOut](s, "list_tags", map[string]any{"prefix": "project", "limit": 2, "cursor": page.NextCursor})
		if !slices.Equal(append(page.Tags, rest.Tags...), want) || rest.NextCursor != "" {
			t.Errorf("pages %+v then %+v", page, rest)
		}
	})

	t.Run("recent_changes", func(t *testing.T) {
		var out struct {
			Results []struct {
				Path     string    `json:"path"`
				Modified time.Time `json:"modified"`
			} `json:"results"`
			Total      int    `json:"total"`
			NextCursor string `json:"next_cursor"`
		}
		res := s.Call("recent_changes", map[string]any{"limit": 5})
		json.Unmarshal(structuredJSON(t, res), &out)
		if len(out.Results) != 5 || out.Total != countNotes(t, dir) || out.NextCursor == "" {
			t.Errorf("recent %+v", out)
		}
		for i := 1; i < len(out.Results); i++ {
			if out.Results[i].Modified.After(out.Results[i-1].Modified) {
				t.Errorf("not newest first: %+v", out.Results)
			}
		}
	})

	t.Run("resolve_notes", func(t *testing.T) {
		res, txt := ok[wiki.ResolveResult](s, "resolve_notes", map[string]any{"names": []any{"Alice", "Decision Log", "no such note"}})
		want := []wiki.NameResolution{
			{Name: "Alice", Exists: true, Matches: []wiki.NameMatch{{Path: "people/alice", Title: "Alice Martin", Score: 1, MatchedBy: "alias"}}},
			{Name: "Decision Log", Exists: true, Matches: []wiki.NameMatch{{Path: "projects/alpha/decisions", Title: "Decision Log", Score: 1, MatchedBy: "title"}}},
			{Name: "no such note", Exists: false, Matches: []wiki.NameMatch{}},
		}
		if b1, b2 := jsonOf(t, res.Results), jsonOf(t, want); b1 != b2 {
			t.Errorf("resolve %s\nwant    %s", b1, b2)
		}
		if !strings.Contains(txt, `"no such note" → no note`) {
			t.Errorf("text:\n%s", txt)
		}
	})

	t.Run("random_note", func(t *testing.T) {
		res, _ := ok[wiki.RandomResult](s, "random_note", map[string]any{"tags": []any{"person"}})
		if !strings.HasPrefix(res.Path, "people/") || !slices.ContainsFunc(res.Tags, func(tag string) bool { return strings.EqualFold(tag, "person") }) {
			t.Errorf("random %+v", res)
		}
	})

	t.Run("daily_note read", func(t *testing.T) {
		out, txt := ok[wiki.DailyResult](s, "daily_note", map[string]any{"date": "2024-03-11"})
		b, _ := os.ReadFile(filepath.Join(dir, "journal", "2024-03-11.md"))
		if out.Path != "journal/2024-03-11" || out.Note == nil || out.Note.Content != string(b) || out.Created {
			t.Errorf("daily %+v", out)
		}
		if !strings.HasPrefix(txt, "# 2024-03-11\n") {
			t.Errorf("text:\n%s", txt)
		}
	})

	t.Run("wiki_status", func(t *testing.T) {
		st, txt := ok[wiki.Status](s, "wiki_status", nil)
		if st.Head != head || st.Branch != "main" || st.Notes != countNotes(t, dir) || !st.Index.CaughtUp || st.ReadOnly {
			t.Errorf("status %+v", st)
		}
		if !strings.Contains(txt, "Search index: up to date.") {
			t.Errorf("text:\n%s", txt)
		}
	})

	if got := git(t, dir, "rev-parse", "HEAD"); got != head || gittest.Status(t, dir) != "" {
		t.Errorf("reads changed the repository: HEAD %s -> %s", head, got)
	}
}

func checkBadArguments(t *testing.T, s *session, dir string) {
	head := git(t, dir, "rev-parse", "HEAD")
	tests := []struct {
		tool string
		args map[string]any
		code wiki.Code
		arg  string // the argument the error must name, if any
	}{
		{"read_note", map[string]any{"path": "index", "bogus": 1}, wiki.CodeInvalidParams, ""},
		{"read_note", map[string]any{"path": 5}, wiki.CodeInvalidParams, "path"},
		{"read_note", map[string]any{"path": "index", "section": nil}, wiki.CodeInvalidParams, "section"},
		{"read_note", map[string]any{}, wiki.CodeInvalidParams, ""},
		{"read_note", map[string]any{"path": "../etc/passwd"}, wiki.CodeInvalidPath, ""},
		{"read_note", map[string]any{"path": "no/such/note"}, wiki.CodeNotFound, ""},
		{"read_note", map[string]any{"path": "index", "max_chars": 0}, wiki.CodeInvalidParams, "max_chars"},
		{"write_note", map[string]any{"path": "a", "content": "x", "overwrite": "yes"}, wiki.CodeInvalidParams, "overwrite"},
		{"write_note", map[string]any{"path": ".git/config", "content": "x"}, wiki.CodeInvalidPath, ""},
		{"write_note", map[string]any{"path": "index", "content": "x"}, wiki.CodeAlreadyExists, ""},
		{"write_note", map[string]any{"path": "a", "content": "x", "tags": "one"}, wiki.CodeInvalidParams, "tags"},
		{"edit_note", map[string]any{"path": "index", "edits": []any{map[string]any{"op": "explode"}}}, wiki.CodeInvalidParams, "edits[0].op"},
		{"edit_note", map[string]any{"path": "index", "edits": "append"}, wiki.CodeInvalidParams, "edits"},
		{"edit_note", map[string]any{"path": "index", "edits": []any{map[string]any{"op": "append", "content": "x", "colour": "red"}}}, wiki.CodeInvalidParams, ""},
		{"edit_note", map[string]any{"path": "index", "edits": []any{map[string]any{"op": "replace", "find": "no such text", "content": "x"}}}, wiki.CodeNotFound, ""},
		{"edit_note", map[string]any{"path": "a\\b", "edits": []any{map[string]any{"op": "append", "content": "x"}}}, wiki.CodeInvalidPath, ""},
		{"update_metadata", map[string]any{"path": "index", "tags": []any{"a"}, "add_tags": []any{"b"}}, wiki.CodeInvalidParams, ""},
		{"update_metadata", map[string]any{"path": "index", "set": []any{"status"}}, wiki.CodeInvalidParams, "set"},
		{"delete_note", map[string]any{"path": "index", "confirm": false}, wiki.CodeInvalidParams, ""},
		{"delete_note", map[string]any{"path": "index"}, wiki.CodeInvalidParams, ""},
		{"delete_note", map[string]any{"path": "/etc/passwd", "confirm": true}, wiki.CodeInvalidPath, ""},
		{"daily_note", map[string]any{"date": "yesterday"}, wiki.CodeInvalidParams, ""},
		{"daily_note", map[string]any{"op": "append"}, wiki.CodeInvalidParams, "content"},
		{"daily_note", map[string]any{"op": "replace", "content": "x"}, wiki.CodeInvalidParams, "op"},
		{"apply_changes", map[string]any{"changes": []any{}}, wiki.CodeInvalidParams, "changes"},
		{"apply_changes", map[string]any{"changes": []any{map[string]any{"tool": "note_history", "arguments": map[string]any{}}}}, wiki.CodeInvalidParams, "changes[0].tool"},
		{"apply_changes", map[string]any{"changes": []any{map[string]any{"tool": "write_note",
			"arguments": map[string]any{"path": "a", "content": "x", "dry_run": true}}}}, wiki.CodeInvalidParams, ""},
		{"apply_changes", map[string]any{"changes": []any{map[string]any{"tool": "write_note",
			"arguments": map[string]any{"path": "a", "content": 3}}}}, wiki.CodeInvalidParams, "changes[0].arguments.content"},
		{"apply_changes", map[string]any{"changes": []any{
			map[string]any{"tool": "write_note", "arguments": map[string]any{"path": "fresh", "content": "x"}},
			map[string]any{"tool": "delete_note", "arguments": map[string]any{"path": "../x", "confirm": true}},
		}}, wiki.CodeInvalidPath, ""},
		{"search_notes", map[string]any{"query": "title:"}, wiki.CodeInvalidQuery, ""},
		{"search_notes", map[string]any{"limit": 0}, wiki.CodeInvalidParams, "limit"},
		{"search_notes", map[string]any{"limit": 2.5}, wiki.CodeInvalidParams, "limit"},
		{"search_notes", map[string]any{"sort": "size"}, wiki.CodeInvalidParams, "sort"},
		{"search_notes", map[string]any{"modified_since": "last week"}, wiki.CodeInvalidParams, "modified_since"},
		{"search_notes", map[string]any{"folder": "../up"}, wiki.CodeInvalidPath, ""},
		{"grep_notes", map[string]any{"pattern": ""}, wiki.CodeInvalidParams, "pattern"},
		{"grep_notes", map[string]any{"pattern": "(", "regex": true}, wiki.CodeInvalidParams, ""},
		{"list_notes", map[string]any{"path": "../x"}, wiki.CodeInvalidPath, ""},
		{"list_notes", map[string]any{"limit": 500}, wiki.CodeInvalidParams, "limit"},
		{"list_notes", map[string]any{"path": "no-such-folder"}, wiki.CodeNotFound, ""},
		{"list_tags", map[string]any{"cursor": "zzz"}, wiki.CodeInvalidParams, ""},
		{"list_tags", map[string]any{"limit": -1}, wiki.CodeInvalidParams, "limit"},
		{"recent_changes", map[string]any{"since": "soon"}, wiki.CodeInvalidParams, "since"},
		{"resolve_notes", map[string]any{"names": []any{}}, wiki.CodeInvalidParams, "names"},
		{"resolve_notes", map[string]any{"names": []any{"a"}, "strategy": "semantic"}, wiki.CodeInvalidParams, ""},
		{"resolve_notes", map[string]any{"names": []any{"a"}, "threshold": 0}, wiki.CodeInvalidParams, "threshold"},
		{"resolve_notes", map[string]any{"names": []any{1}}, wiki.CodeInvalidParams, "names[0]"},
		{"random_note", map[string]any{"tags": "x"}, wiki.CodeInvalidParams, "tags"},
		{"random_note", map[string]any{"tags": []any{"no-such-tag"}}, wiki.CodeNotFound, ""},
		{"wiki_status", map[string]any{"x": 1}, wiki.CodeInvalidParams, ""},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			e := s.Fail(tt.tool, tt.args, string(tt.code))
			if tt.arg != "" && e != nil && e["argument"] != tt.arg {
				t.Errorf("%s %v: the error names argument %v, want %s: %v", tt.tool, tt.args, e["argument"], tt.arg, e["message"])
			}
		})
	}
	if got := git(t, dir, "rev-parse", "HEAD"); got != head || gittest.Status(t, dir) != "" {
		t.Errorf("failed calls changed the repository: HEAD %s -> %s\n%s", head, got, gittest.Status(t, dir))
	}
}

func checkMutations(t *testing.T, s *session, dir string) {
	var version string

	t.Run("write_note", func(t *testing.T) {
		before := git(t, dir, "rev-parse", "HEAD")
		out, txt := ok[mutationOut](s, "write_note", map[string]any{
			"path": "inbox/New Idea.md", "content": "# New idea\n\nbody\n", "tags": []any{"idea"}, "message": "capture an idea",
		})
		c := checkCommit(t, dir, before, "write_note", out.Commit)
		version = out.Version
		if out.Path != "inbox/New Idea" || version != git(t, dir, "rev-parse", "HEAD:inbox/New Idea.md") ||
			c.Subject != "create: inbox/New Idea" || !strings.Contains(c.Body, "capture an idea") {
			t.Errorf("write %+v, commit %+v", out, c)
		}
		b, _ := os.ReadFile(filepath.Join(dir, "inbox", "New Idea.md"))
		if string(b) != "---\ntags:\n  - idea\n---\n# New idea\n\nbody\n" {
			t.Errorf("file:\n%s", b)
		}
		wantText := `Created note "New idea" at inbox/New Idea (+7 -0; commit ` + out.Commit[:7] + " on main, version " + version[:7] + ")"
		if txt != wantText {
			t.Errorf("text %q\nwant %q", txt, wantText)
		}
	})

	t.Run("edit_note", func(t *testing.T) {
		before := git(t, dir, "rev-parse", "HEAD")
		out, _ := ok[mutationOut](s, "edit_note", map[string]any{"path": "inbox/New Idea", "expected_version": version[:8],
			"edits": []any{map[string]any{"op": "append", "content": "more"}, map[string]any{"op": "replace", "find": "body", "content": "text"}}})
		checkCommit(t, dir, before, "edit_note", out.Commit)
		b, _ := os.ReadFile(filepath.Join(dir, "inbox", "New Idea.md"))
		if string(b) != "---\ntags:\n  - idea\n---\n# New idea\n\ntext\nmore\n" || out.Version == version {
			t.Errorf("file:\n%s", b)
		}
		// The old version is stale now.
		e := s.Fail("edit_note", map[string]any{"path": "inbox/New Idea", "expected_version": version,
			"edits": []any{map[string]any{"op": "append", "content": "lost"}}}, "CONFLICT")
		if e["current_version"] != out.Version {
			t.Errorf("conflict names version %v, want %s", e["current_version"], out.Version)
		}
		version = out.Version
	})

	t.Run("dry run", func(t *testing.T) {
		before := git(t, dir, "rev-parse", "HEAD")
		out, txt := ok[mutationOut](s, "edit_note", map[string]any{"path": "inbox/New Idea", "dry_run": true,
			"edits": []any{map[string]any{"op": "delete_section", "section": "New idea"}}})
		// Half of the note's lines go: medium risk.
		if out.Commit != "" || !out.DryRun || out.Risk != "medium" || !strings.Contains(out.Diff, "\n-# New idea\n") {
			t.Errorf("dry run %+v", out)
		}
		if !strings.HasPrefix(txt, "Dry run, nothing was committed.") || !strings.Contains(txt, "Risk: medium.") || !strings.Contains(txt, "@@") {
			t.Errorf("text:\n%s", txt)
		}
		if git(t, dir, "rev-parse", "HEAD") != before {
			t.Error("a dry run committed")
		}
	})

	t.Run("update_metadata", func(t *testing.T) {
		before := git(t, dir, "rev-parse", "HEAD")
		out, txt := ok[mutationOut](s, "update_metadata", map[string]any{"path": "inbox/New Idea",
			"add_tags": []any{"later"}, "set": map[string]any{"status": "draft", "priority": 2}})
		checkCommit(t, dir, before, "update_metadata", out.Commit)
		if out.Metadata == nil || out.Metadata.After["status"] != "draft" || out.Metadata.Before["status"] != nil {
			t.Errorf("metadata %+v", out.Metadata)
		}
		b, _ := os.ReadFile(filepath.Join(dir, "inbox", "New Idea.md"))
		if string(b) != "---\ntags:\n  - idea\n  - later\npriority: 2\nstatus: draft\n---\n# New idea\n\ntext\nmore\n" {
			t.Errorf("file:\n%s", b)
		}
		if !strings.Contains(txt, "status: (new) → draft") {
			t.Errorf("text:\n%s", txt)
		}
	})

	t.Run("daily_note", func(t *testing.T) {
		before := git(t, dir, "rev-parse", "HEAD")
		out, txt := ok[struct {
			Path    string `json:"path"`
			Created bool   `json:"created"`
			Commit  string `json:"commit"`
			Version string `json:"version"`
		}](s, "daily_note", map[string]any{"date": "2024-06-01", "op": "append_section", "section": "Log", "content": "- shipped"})
		checkCommit(t, dir, before, "daily_note", out.Commit)
		b, _ := os.ReadFile(filepath.Join(dir, "journal", "2024-06-01.md"))
		if out.Path != "journal/2024-06-01" || !out.Created || !strings.Contains(string(b), "## Log\n- shipped\n") ||
			out.Version != git(t, dir, "rev-parse", "HEAD:journal/2024-06-01.md") {
			t.Errorf("daily %+v\n%s", out, b)
		}
		if !strings.HasPrefix(txt, "Created the daily note journal/2024-06-01") {
			t.Errorf("text:\n%s", txt)
		}
	})

	t.Run("apply_changes", func(t *testing.T) {
		before := git(t, dir, "rev-parse", "HEAD")
		out, txt := ok[mutationOut](s, "apply_changes", map[string]any{"message": "reorganise", "changes": []any{
			map[string]any{"tool": "write_note", "arguments": map[string]any{"path": "inbox/second", "content": "# Second\n"}},
			map[string]any{"tool": "edit_note", "arguments": map[string]any{"path": "inbox/second",
				"edits": []any{map[string]any{"op": "append", "content": "see [[inbox/New Idea]]"}}}},
			map[string]any{"tool": "update_metadata", "arguments": map[string]any{"path": "inbox/New Idea", "expected_version": "",
				"remove_tags": []any{"later"}}},
			map[string]any{"tool": "delete_note", "arguments": map[string]any{"path": "inbox/untitled", "confirm": true}},
		}})
		c := checkCommit(t, dir, before, "apply_changes", out.Commit)
		if c.Subject != "batch: 3 notes" || len(out.Changes) != 3 {
			t.Errorf("batch %+v, commit %+v", out, c)
		}
		names := git(t, dir, "show", "--name-status", "--format=", "HEAD")
		if names != "M\tinbox/New Idea.md\nA\tinbox/second.md\nD\tinbox/untitled.md" {
			t.Errorf("the commit changes:\n%s", names)
		}
		if !strings.HasPrefix(txt, "Applied 4 changes as commit "+out.Commit[:7]+" on main:") {
			t.Errorf("text:\n%s", txt)
		}
	})

	t.Run("delete_note", func(t *testing.T) {
		before := git(t, dir, "rev-parse", "HEAD")
		out, txt := ok[mutationOut](s, "delete_note", map[string]any{"path": "inbox/New Idea", "confirm": true})
		checkCommit(t, dir, before, "delete_note", out.Commit)
		if _, err := os.Stat(filepath.Join(dir, "inbox", "New Idea.md")); !os.IsNotExist(err) {
			t.Errorf("the file is still there: %v", err)
		}
		if out.Version != "" || len(out.Changes) != 1 || out.Changes[0].Action != wiki.ActionDeleted {
			t.Errorf("delete %+v", out)
		}
		// inbox/second links to it by path.
		if !strings.Contains(txt, "Warning: 1 note has links that named the deleted note: inbox/second (1 link).") ||
			len(out.BrokenLinks) != 1 || out.BrokenLinks[0].Path != "inbox/second" {
			t.Errorf("text:\n%s", txt)
		}
		s.Fail("delete_note", map[string]any{"path": "inbox/New Idea", "confirm": true}, "NOT_FOUND")
	})
}

// tagsOut is the structured content of list_tags.
type tagsOut struct {
	Tags       []wiki.TagCount `json:"tags"`
	Total      int             `json:"total"`
	NextCursor string          `json:"next_cursor"`
}

// tagOracle counts, for every tag in use that starts with prefix, the notes
// of dir that have it or a tag nested under it, from the files parsed by the
// note package; most used first, then by tag.
func tagOracle(tb testing.TB, dir, prefix string) []wiki.TagCount {
	tb.Helper()
	var notes []*note.Note
	tags := map[string]bool{}
	for _, f := range strings.Split(git(tb, dir, "ls-files", "-z"), "\x00") {
		p, _, ok := note.SplitFileName(f)
		if !ok {
			continue
		}
		b, _ := os.ReadFile(filepath.Join(dir, f))
		n := note.Parse(p, b)
		notes = append(notes, n)
		for _, t := range n.Tags {
			parts := strings.Split(t.Name, "/")
			for i := range parts {
				if tag := strings.Join(parts[:i+1], "/"); strings.HasPrefix(strings.ToLower(tag), prefix) {
					tags[tag] = true
				}
			}
		}
	}
	var out []wiki.TagCount
	for tag := range tags {
		c := wiki.TagCount{Tag: tag}
		for _, n := range notes {
			if n.HasTag(tag) {
				c.Count++
			}
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b wiki.TagCount) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return strings.Compare(a.Tag, b.Tag)
	})
	return out
}

// notesWithWord lists the notes of dir containing one of the words, by the
// note package's parse and a whole-word match: the oracle of a search.
func notesWithWord(tb testing.TB, dir string, words ...string) []string {
	tb.Helper()
	var out []string
	for _, f := range strings.Split(git(tb, dir, "ls-files", "-z"), "\x00") {
		p, _, ok := note.SplitFileName(f)
		if !ok {
			continue
		}
		b, _ := os.ReadFile(filepath.Join(dir, f))
		for _, w := range strings.FieldsFunc(strings.ToLower(string(b)), func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
		}) {
			if slices.Contains(words, w) {
				out = append(out, p)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// gitGrep is `git grep` over the notes of dir, case-insensitive and fixed
// string, as "path:line:text" with note paths.
func gitGrep(tb testing.TB, dir, pattern string) []string {
	tb.Helper()
	out, err := gittest.TryGit(dir, "grep", "-n", "-i", "-F", "--full-name", "-e", pattern, "--", "*.md", "*.markdown", "*.mdx")
	if err != nil {
		tb.Fatalf("git grep: %v\n%s", err, out)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		file, rest, _ := strings.Cut(l, ":")
		p, _, ok := note.SplitFileName(file)
		if !ok {
			continue
		}
		lines = append(lines, p+":"+strings.TrimSuffix(rest, "\r"))
	}
	return lines
}

func countNotes(tb testing.TB, dir string) int {
	tb.Helper()
	n := 0
	for _, f := range strings.Split(git(tb, dir, "ls-files", "-z"), "\x00") {
		if _, _, ok := note.SplitFileName(f); ok {
			n++
		}
	}
	return n
}

// hint is an annotation's value, def when it is absent.
func hint(p *bool, def bool) bool {
	if p == nil {
		return def
	}
	return *p
}
