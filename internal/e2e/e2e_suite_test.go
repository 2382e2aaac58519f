package e2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// TestE2E_Stdio runs the TypeScript SDK suite against `wikid serve`
// spawned by the SDK's stdio transport, as Claude Desktop and most other
// clients start it.
func TestE2E_Stdio(t *testing.T) {
	t.Parallel()
	dir := fixtureRepo(t)
	c := connectTS(t, startBridge(t), stdioRequest(wikidBin, "--repo", dir))
	runTSSuite(t, c, dir)
}

// TestE2E_HTTP runs the TypeScript SDK suite against `wikid serve --http`
// with a token, over the SDK's streamable HTTP transport.
func TestE2E_HTTP(t *testing.T) {
	t.Parallel()
	dir := fixtureRepo(t)
	const token = "e2e-t0ken"
	p := startServe(t, serveEnv(), "--repo", dir, "--http", "127.0.0.1:0", "--token", token)
	if p.url == "" {
		<-p.exited
		t.Fatalf("wikid serve exited: %v\n%s", p.cmd.ProcessState, p.stderr)
	}
	b := startBridge(t)
	if _, err := b.do(map[string]any{"op": "connect", "client": map[string]string{"name": "x", "version": "1"},
		"transport": "http", "url": p.url, "headers": map[string]string{"Authorization": "Bearer wrong"}}); err == nil ||
		!strings.Contains(err.Error(), "401") {
		t.Errorf("connecting with a wrong token: %v, want HTTP 401", err)
	}
	runTSSuite(t, connectTS(t, b, httpRequest(p.url, token)), dir)
}

// TestE2E_ReadOnly checks over stdio that a read-only server lists no tool
// that changes notes and refuses a call to one with READ_ONLY.
func TestE2E_ReadOnly(t *testing.T) {
	dir := fixtureRepo(t)
	c := connectTS(t, startBridge(t), stdioRequest(wikidBin, "--repo", dir, "--read-only"))
	head := git(t, dir, "rev-parse", "HEAD")
	for _, tl := range c.listTools(t) {
		if tl.Annotations.ReadOnlyHint == nil || !*tl.Annotations.ReadOnlyHint {
			t.Errorf("a read-only server lists %s, which changes notes", tl.Name)
		}
	}
	for _, name := range mutatingTools {
		tsFail(t, c, name, changeArgs(name), "READ_ONLY")
	}
	// daily_note reads; only its changes are refused.
	daily, _ := tsOK[wiki.DailyResult](t, c, "daily_note", map[string]any{"date": "2024-03-11", "op": "read"})
	if daily.Note == nil || daily.Path != "journal/2024-03-11" {
		t.Errorf("daily_note read on a read-only server: %s", jsonOf(t, daily))
	}
	tsOK[wiki.DailyResult](t, c, "daily_note", map[string]any{"date": "2024-03-11"})
	if got := git(t, dir, "rev-parse", "HEAD"); got != head {
		t.Errorf("a read-only server committed: HEAD %s -> %s", head, got)
	}
}

// runTSSuite drives every tool through the TypeScript client over the
// fixture wiki at dir and checks results and repository.
func runTSSuite(t *testing.T, c *tsClient, dir string) {
	c.listTools(t)
	waitIndexedTS(t, c)
	t.Run("tools/list", func(t *testing.T) { checkTSTools(t, c) })
	t.Run("reads", func(t *testing.T) { checkTSReads(t, c, dir) })
	t.Run("bad arguments", func(t *testing.T) { checkTSBadArguments(t, c, dir) })
	t.Run("mutations", func(t *testing.T) { checkTSMutations(t, c, dir) })
}

// waitIndexedTS waits until wiki_status says the index reflects HEAD.
func waitIndexedTS(tb testing.TB, c *tsClient) {
	tb.Helper()
	deadline := time.Now().Add(120 * time.Second)
	for {
		st, _ := tsOK[wiki.Status](tb, c, "wiki_status", nil)
		if st.Index.CaughtUp && !st.Index.Building {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("the index did not catch up: %+v", st.Index)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// toolName is the verb_object form of TOOLS.md.
var toolName = regexp.MustCompile(`^[a-z]+(_[a-z]+)+$`)

// checkTSTools checks every listed tool, whatever the list holds: its name,
// description, schemas (valid JSON Schema, closed objects, every argument
// described), annotations, and that an unknown argument is INVALID_PARAMS.
func checkTSTools(t *testing.T, c *tsClient) {
	for _, name := range allTools {
		if _, ok := c.tools[name]; !ok {
			t.Errorf("tools/list lacks %s", name)
		}
	}
	for name, tl := range c.tools {
		t.Run(name, func(t *testing.T) {
			if !toolName.MatchString(name) || tl.Title == "" || tl.Annotations.Title != tl.Title {
				t.Errorf("name %q, title %q, annotation title %q", name, tl.Title, tl.Annotations.Title)
			}
			if len(tl.Description) < 60 || !strings.Contains(strings.ToLower(tl.Description), "use") {
				t.Errorf("the description should say what the tool does and when to use it: %q", tl.Description)
			}
			compileSchema(t, name+".input", tl.InputSchema)
			checkClosed(t, name, "input", tl.InputSchema)
			if tl.InputSchema["type"] != "object" {
				t.Errorf("input schema type %v", tl.InputSchema["type"])
			}
			props, _ := tl.InputSchema["properties"].(map[string]any)
			for _, p := range undocumentedArgs(tl.Description, props) {
				t.Errorf("argument %s is explained nowhere: describe it, or name it in the tool's description", p)
			}
			required, _ := tl.InputSchema["required"].([]any)
			for _, r := range required {
				if _, ok := props[r.(string)]; !ok {
					t.Errorf("required %v is no property", r)
				}
			}
			if slices.Contains(contentOnlyTools, name) {
				if tl.OutputSchema != nil {
					t.Errorf("%s answers in content only, yet has an output schema", name)
				}
				return
			}
			if tl.OutputSchema["type"] != "object" || c.outputs[name] == nil {
				t.Errorf("output schema %v", tl.OutputSchema)
			}
			failed, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"error":{"code":"NOT_FOUND","message":"m","hint":"h"}}`))
			if err := compileSchema(t, name+".published", tl.OutputSchema).Validate(failed); err != nil {
				t.Errorf("the output schema does not admit the structured error: %v", err)
			}
			a := tl.Annotations
			if hint(a.OpenWorldHint, true) {
				t.Fatalf("annotations %+v", a)
			}
			mutating := !hint(a.ReadOnlyHint, false)
			if mutating && !hint(a.DestructiveHint, true) == slices.Contains([]string{"delete_note", "apply_changes"}, name) {
				t.Errorf("destructiveHint %v", a.DestructiveHint)
			}
			if slices.Contains(allTools, name) && mutating != slices.Contains(mutatingTools, name) {
				t.Errorf("readOnlyHint %v", a.ReadOnlyHint)
			}
			for _, p := range []string{"dry_run", "message"} {
				if _, ok := props[p]; mutating && !ok && name != "sync_wiki" {
					t.Errorf("a tool that changes notes lacks %s", p)
				}
			}
			// Whatever the tool, an argument it does not know is refused
			// before anything runs.
			tsFail(t, c, name, map[string]any{"no_such_argument": 1}, string(wiki.CodeInvalidParams))
		})
	}
}

func checkTSReads(t *testing.T, c *tsClient, dir string) {
	head := git(t, dir, "rev-parse", "HEAD")
	file := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	t.Run("read_note", func(t *testing.T) {
		plan := file("projects/alpha/plan.md")
		r, _ := tsOK[wiki.ReadResult](t, c, "read_note", map[string]any{"path": "projects/alpha/plan"})
		if r.Title != "Alpha plan" || r.Content != plan || r.Commit != head || r.Truncated ||
			r.Version != git(t, dir, "rev-parse", "HEAD:projects/alpha/plan.md") {
			t.Errorf("read %+v", r)
		}
		r, _ = tsOK[wiki.ReadResult](t, c, "read_note", map[string]any{"path": "projects/alpha/plan", "section": "Risks/Technical"})
		if r.Section != "Technical" || !strings.HasPrefix(r.Content, "### Technical\n\nThe backfill") {
			t.Errorf("section %+v", r)
		}
		r, _ = tsOK[wiki.ReadResult](t, c, "read_note", map[string]any{"path": "projects/alpha/plan", "metadata_only": true})
		lines := strings.Split(plan, "\n")
		if r.Content != "" || len(r.Headings) < 5 {
			t.Errorf("metadata only %+v", r)
		}
		for _, h := range r.Headings {
			if h.Line < 1 || h.Line > len(lines) || lines[h.Line-1] != strings.Repeat("#", h.Level)+" "+h.Text {
				t.Errorf("heading %+v is not on its line", h)
			}
		}
	})

	t.Run("search_notes", func(t *testing.T) {
		res, _ := tsOK[wiki.SearchResult](t, c, "search_notes", map[string]any{"query": "milestones", "limit": 100})
		if got, want := hitPaths(res.Results), notesWithWord(t, dir, "milestones", "milestone"); !slices.Equal(got, want) || res.Total != len(want) {
			t.Errorf("hits %v, want %v", got, want)
		}
		first, _ := tsOK[wiki.SearchResult](t, c, "search_notes", map[string]any{"tags": []any{"project/alpha"}, "sort": "title", "limit": 2})
		rest, _ := tsOK[wiki.SearchResult](t, c, "search_notes", map[string]any{"tags": []any{"project/alpha"}, "sort": "title", "limit": 2, "cursor": first.NextCursor})
		got := append(hitPaths(first.Results), hitPaths(rest.Results)...)
		slices.Sort(got)
		if want := notesWithTag(t, dir, "project/alpha"); !slices.Equal(got, want) || first.Total != len(want) || rest.NextCursor != "" {
			t.Errorf("two pages %v, want %v", got, want)
		}
	})

	t.Run("gather_context", func(t *testing.T) {
		res, txt := tsOK[wiki.ContextResult](t, c, "gather_context", map[string]any{"question": "How fast may the backfill copy data without saturating the network?", "budget": 400})
		if len(res.Sections) == 0 || res.Sections[0].Path != "projects/alpha/plan" || res.Tokens > 400 || res.Budget != 400 {
			t.Fatalf("%+v", res)
		}
		for _, s := range res.Sections {
			body := gittest.Git(t, dir, "show", "HEAD:"+noteFileOf(t, dir, s.Path))
			lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
			if s.EndLine > len(lines) || strings.Join(lines[s.StartLine-1:s.EndLine], "\n") != s.Text {
				t.Errorf("%s lines %d-%d are not %q", s.Path, s.StartLine, s.EndLine, s.Text)
			}
			if !strings.Contains(txt, fmt.Sprintf("%s, lines %d-%d", s.Path, s.StartLine, s.EndLine)) {
				t.Errorf("the text does not cite %s lines %d-%d:\n%s", s.Path, s.StartLine, s.EndLine, txt)
			}
		}
	})

	t.Run("grep_notes", func(t *testing.T) {
		res, _ := tsOK[wiki.GrepResult](t, c, "grep_notes", map[string]any{"pattern": "[[alice]]"})
		var got []string
		for _, m := range res.Matches {
			got = append(got, m.Path+":"+strconv.Itoa(m.Line)+":"+m.Text)
		}
		if want := gitGrep(t, dir, "[[alice]]"); !slices.Equal(got, want) || len(want) == 0 {
			t.Errorf("grep %v, want %v", got, want)
		}
	})

	t.Run("list_notes", func(t *testing.T) {
		res, _ := tsOK[wiki.ListResult](t, c, "list_notes", map[string]any{"path": "projects/alpha", "sort": "alpha"})
		var got, want []string
		for _, n := range res.Notes {
			got = append(got, n.Path)
		}
		for _, f := range strings.Fields(git(t, dir, "ls-files", "projects/alpha")) {
			if p, _, ok := note.SplitFileName(f); ok && !strings.Contains(strings.TrimPrefix(f, "projects/alpha/"), "/") {
				want = append(want, p)
			}
		}
		if !slices.Equal(got, want) || res.Total != len(want) {
			t.Errorf("notes %v, want %v", got, want)
		}
	})

	t.Run("list_tags", func(t *testing.T) {
		out, _ := tsOK[tagsOut](t, c, "list_tags", map[string]any{"prefix": "project"})
		if want := tagOracle(t, dir, "project"); !slices.Equal(out.Tags, want) || len(want) == 0 {
			t.Errorf("tags %+v, want %+v", out.Tags, want)
		}
	})

	t.Run("recent_changes", func(t *testing.T) {
		out, _ := tsOK[struct {
			Results []struct {
				Path     string    `json:"path"`
				Modified time.Time `json:"modified"`
			} `json:"results"`
			Total int `json:"total"`
		}](t, c, "recent_changes", map[string]any{"limit": 5})
		if len(out.Results) != 5 || out.Total != countNotes(t, dir) {
			t.Errorf("recent %+v", out)
		}
		for i := 1; i < len(out.Results); i++ {
			if out.Results[i].Modified.After(out.Results[i-1].Modified) {
				t.Errorf("not newest first: %+v", out.Results)
			}
		}
	})

	t.Run("resolve_notes", func(t *testing.T) {
		res, _ := tsOK[wiki.ResolveResult](t, c, "resolve_notes", map[string]any{"names": []any{"Alice", "Decision Log", "no such note"}})
		if len(res.Results) != 3 || !res.Results[0].Exists || res.Results[0].Matches[0].Path != "people/alice" ||
			res.Results[1].Matches[0].Path != "projects/alpha/decisions" || res.Results[1].Matches[0].MatchedBy != "title" ||
			res.Results[2].Exists || len(res.Results[2].Matches) != 0 {
			t.Errorf("resolve %s", jsonOf(t, res))
		}
		// exact is the whole path, title or alias: not the end of a path.
		res, _ = tsOK[wiki.ResolveResult](t, c, "resolve_notes", map[string]any{"names": []any{"plan", "alpha/plan", "Projects/Alpha/Plan"}, "strategy": "exact"})
		if len(res.Results) != 3 || res.Results[0].Exists || res.Results[1].Exists || !res.Results[2].Exists ||
			res.Results[2].Matches[0].Path != "projects/alpha/plan" || res.Results[2].Matches[0].MatchedBy != "path" {
			t.Errorf("exact resolution by the end of a path: %s", jsonOf(t, res))
		}
	})

	t.Run("random_note", func(t *testing.T) {
		people := notesWithTag(t, dir, "person")
		for range 5 {
			res, _ := tsOK[wiki.RandomResult](t, c, "random_note", map[string]any{"tags": []any{"person"}})
			if !slices.Contains(people, res.Path) {
				t.Errorf("random %s, want one of %v", res.Path, people)
			}
		}
	})

	t.Run("daily_note", func(t *testing.T) {
		out, _ := tsOK[wiki.DailyResult](t, c, "daily_note", map[string]any{"date": "2024-03-11"})
		if out.Path != "journal/2024-03-11" || out.Note == nil || out.Note.Content != file("journal/2024-03-11.md") || out.Created {
			t.Errorf("daily %s", jsonOf(t, out))
		}
	})

	t.Run("wiki_status", func(t *testing.T) {
		st, _ := tsOK[wiki.Status](t, c, "wiki_status", nil)
		if st.Head != head || st.Branch != "main" || st.Notes != countNotes(t, dir) || !st.Index.CaughtUp || st.ReadOnly {
			t.Errorf("status %s", jsonOf(t, st))
		}
	})

	if got := git(t, dir, "rev-parse", "HEAD"); got != head || gittest.Status(t, dir) != "" {
		t.Errorf("reads changed the repository: HEAD %s -> %s", head, got)
	}
}

func checkTSBadArguments(t *testing.T, c *tsClient, dir string) {
	head := git(t, dir, "rev-parse", "HEAD")
	edit := func(e map[string]any) []any { return []any{e} }
	tests := []struct {
		tool string
		args map[string]any
		code wiki.Code
	}{
		{"read_note", map[string]any{"path": 5}, wiki.CodeInvalidParams},
		{"read_note", map[string]any{"path": "../etc/passwd"}, wiki.CodeInvalidPath},
		{"read_note", map[string]any{"path": "no/such/note"}, wiki.CodeNotFound},
		{"write_note", map[string]any{"path": "index", "content": "x"}, wiki.CodeAlreadyExists},
		{"write_note", map[string]any{"path": ".git/config", "content": "x"}, wiki.CodeInvalidPath},
		{"edit_note", map[string]any{"path": "index", "edits": edit(map[string]any{"op": "explode"})}, wiki.CodeInvalidParams},
		{"edit_note", map[string]any{"path": "index", "edits": edit(map[string]any{"op": "replace", "find": "no such text", "content": "x"})}, wiki.CodeNotFound},
		{"edit_note", map[string]any{"path": "projects/alpha/plan", "edits": edit(map[string]any{"op": "replace", "find": "### Technical", "content": "x"})}, wiki.CodeAmbiguous},
		{"edit_note", map[string]any{"path": "index", "expected_version": "0000000", "edits": edit(map[string]any{"op": "append", "content": "x"})}, wiki.CodeConflict},
		{"update_metadata", map[string]any{"path": "index", "tags": []any{"a"}, "add_tags": []any{"b"}}, wiki.CodeInvalidParams},
		{"update_metadata", map[string]any{"path": "no/such/note", "title": "x"}, wiki.CodeNotFound},
		{"delete_note", map[string]any{"path": "index"}, wiki.CodeInvalidParams},
		{"delete_note", map[string]any{"path": "no/such/note", "confirm": true}, wiki.CodeNotFound},
		{"daily_note", map[string]any{"date": "yesterday"}, wiki.CodeInvalidParams},
		{"daily_note", map[string]any{"date": "1999-01-01"}, wiki.CodeNotFound},
		{"apply_changes", map[string]any{"changes": []any{}}, wiki.CodeInvalidParams},
		{"apply_changes", map[string]any{"changes": []any{
			map[string]any{"tool": "write_note", "arguments": map[string]any{"path": "fresh", "content": "x"}},
			map[string]any{"tool": "delete_note", "arguments": map[string]any{"path": "../x", "confirm": true}},
		}}, wiki.CodeInvalidPath},
		{"search_notes", map[string]any{"query": "title:"}, wiki.CodeInvalidQuery},
		{"search_notes", map[string]any{"query": "colour:red AND (", "limit": 5}, wiki.CodeInvalidQuery},
		{"search_notes", map[string]any{"limit": 0}, wiki.CodeInvalidParams},
		{"grep_notes", map[string]any{"pattern": "(", "regex": true}, wiki.CodeInvalidParams},
		{"list_notes", map[string]any{"path": "no-such-folder"}, wiki.CodeNotFound},
		{"list_tags", map[string]any{"limit": -1}, wiki.CodeInvalidParams},
		{"recent_changes", map[string]any{"since": "soon"}, wiki.CodeInvalidParams},
		{"resolve_notes", map[string]any{"names": []any{}}, wiki.CodeInvalidParams},
		{"random_note", map[string]any{"tags": []any{"no-such-tag"}}, wiki.CodeNotFound},
		{"wiki_status", map[string]any{"verbose": true}, wiki.CodeInvalidParams},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			tsFail(t, c, tt.tool, tt.args, string(tt.code))
		})
	}
	// A search with neither query nor filter would list every note: the
	// tool points to the ones that list.
	for _, args := range []map[string]any{{}, {"query": "  ", "sort": "modified", "limit": 5}, {"tags": []any{}}} {
		e := tsFail(t, c, "search_notes", args, string(wiki.CodeInvalidParams))
		if hint, _ := e["hint"].(string); !strings.Contains(hint, "list_notes") || !strings.Contains(hint, "recent_changes") {
			t.Errorf("search_notes %v: hint %q", args, hint)
		}
	}
	if got := git(t, dir, "rev-parse", "HEAD"); got != head || gittest.Status(t, dir) != "" {
		t.Errorf("failed calls changed the repository: HEAD %s -> %s\n%s", head, got, gittest.Status(t, dir))
	}
}

// hitPaths returns the paths of search hits, sorted.
func hitPaths(hits []wiki.SearchHit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Path)
	}
	slices.Sort(out)
	return out
}

// notesWithTag lists the notes of dir that have tag (or a tag under it),
// parsed by the note package: the oracle of tag filters.
func notesWithTag(tb testing.TB, dir, tag string) []string {
	tb.Helper()
	var out []string
	for _, f := range strings.Split(git(tb, dir, "ls-files", "-z"), "\x00") {
		p, _, ok := note.SplitFileName(f)
		if !ok {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			tb.Fatal(err)
		}
		if note.Parse(p, b).HasTag(tag) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}
