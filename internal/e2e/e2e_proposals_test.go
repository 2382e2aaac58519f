package e2e_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// TestTypeScriptSDK_Proposals is the end to end: a session of the
// official TypeScript SDK started with wikid serve --propose writes,
// edits, moves and deletes notes while the checkout's working tree, index
// and branch stay as they were (git says so); it reads, lists and
// searches its own changes, which another session, of plain wikid serve
// sharing the daemon, does not see; then the person accepts one hunk,
// one note and the rest with wikid proposals accept, and the branch holds
// exactly what was accepted at each step.
func TestTypeScriptSDK_Proposals(t *testing.T) {
	t.Parallel()
	requireNode(t)
	dir := gittest.Init(t)
	var long strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	seed := map[string]string{"plan.md": "# Plan\n\n" + long.String(), "old.md": "# Old\n\nstale\n",
		"draft.md": "# Draft\n\nto file\n", "keep.md": "# Keep\n\nuntouched\n"}
	gittest.Commit(t, dir, "start", seed)
	env := sharedEnv(t, dir)
	bridge := startBridge(t)
	connect := func(name string, args ...string) *tsClient {
		req := stdioRequest(wikidBin, append([]string{"--repo", dir}, args...)...)
		req["env"] = envMap(env)
		req["client"] = map[string]string{"name": name, "version": "1.0"}
		c := connectTS(t, bridge, req)
		c.listTools(t)
		return c
	}
	me := connect("claude-code", "--propose")
	other := connect("cursor")

	git := func(args ...string) string { return gittest.Git(t, dir, args...) }
	state := func() string {
		return git("rev-parse", "HEAD") + git("log", "--format=%H %s") + git("ls-files", "-s") + git("status", "--porcelain")
	}
	before := state()

	// The answer says where the change went: the proposal, named in its
	// text (the structured result has its commit, and no branch).
	res, text := tsOK[wiki.Result](t, me, "write_note", map[string]any{"path": "ideas/quasar", "content": "# Quasar\n\nA quasar, see [[plan]].\n"})
	refs := strings.Fields(git("for-each-ref", "--format=%(refname)", wiki.ProposalsRef))
	if len(refs) != 1 || res.Branch != "" || res.Commit == "" {
		t.Fatalf("write_note in propose mode = %+v; proposal refs %q", res, refs)
	}
	id := strings.TrimPrefix(refs[0], wiki.ProposalsRef)
	if !strings.Contains(text, id) {
		t.Errorf("the answer does not name proposal %s:\n%s", id, text)
	}
	edits := []any{map[string]any{"op": "replace", "find": "line 2\n", "content": "LINE 2\n"}, map[string]any{"op": "replace", "find": "line 19\n", "content": "LINE 19\n"}}
	for _, call := range []struct {
		name string
		args map[string]any
	}{
		{"edit_note", map[string]any{"path": "plan", "edits": edits}},
		{"move_note", map[string]any{"path": "draft", "new_path": "filed/draft"}},
		{"delete_note", map[string]any{"path": "old", "confirm": true}},
	} {
		if r, text := tsOK[wiki.Result](t, me, call.name, call.args); r.Branch != "" || !strings.Contains(text, id) {
			t.Fatalf("%s = %+v, want proposal %s:\n%s", call.name, r, id, text)
		}
	}
	if after := state(); after != before {
		t.Fatalf("the checkout changed under a proposing session:\n%s\nwas\n%s", after, before)
	}
	if got := git("rev-list", "--count", "HEAD.."+wiki.ProposalsRef+id); strings.TrimSpace(got) != "4" {
		t.Errorf("git rev-list --count HEAD..the proposal = %s, want 4", got)
	}

	read := func(c *tsClient, path string) (string, bool) {
		t.Helper()
		r := c.call(t, "read_note", map[string]any{"path": path})
		if r.IsError {
			if r.errorCode() != "NOT_FOUND" {
				t.Fatalf("read_note %s: %s", path, r.text())
			}
			return "", false
		}
		var out wiki.ReadResult
		if err := tool.DecodeWire(r.StructuredContent, &out); err != nil {
			t.Fatal(err)
		}
		return out.Content, true
	}
	listed := func(c *tsClient) []string {
		t.Helper()
		l, _ := tsOK[wiki.ListResult](t, c, "list_notes", map[string]any{"recursive": true})
		var out []string
		for _, n := range l.Notes {
			out = append(out, n.Path)
		}
		slices.Sort(out)
		return out
	}
	found := func(c *tsClient, q string) []string {
		t.Helper()
		s, _ := tsOK[wiki.SearchResult](t, c, "search_notes", map[string]any{"query": q})
		var out []string
		for _, h := range s.Results {
			out = append(out, h.Path)
		}
		return out
	}
	if got, ok := read(me, "ideas/quasar"); !ok || !strings.Contains(got, "A quasar") {
		t.Errorf("the session does not read its new note: %q", got)
	}
	if got, _ := read(me, "plan"); !strings.Contains(got, "LINE 2\n") || !strings.Contains(got, "LINE 19\n") {
		t.Errorf("the session does not read its edit:\n%s", got)
	}
	if _, ok := read(me, "old"); ok {
		t.Error("the session reads the note it deleted")
	}
	if got, want := listed(me), []string{"filed/draft", "ideas/quasar", "keep", "plan"}; !slices.Equal(got, want) {
		t.Errorf("the session lists %v, want %v", got, want)
	}
	if got := found(me, "quasar"); !slices.Equal(got, []string{"ideas/quasar"}) {
		t.Errorf("the session's search for quasar = %v", got)
	}
	if _, ok := read(other, "ideas/quasar"); ok {
		t.Error("another session reads the proposal's new note")
	}
	if got, _ := read(other, "plan"); strings.Contains(got, "LINE") {
		t.Errorf("another session reads the proposal's edit:\n%s", got)
	}
	if got, want := listed(other), []string{"draft", "keep", "old", "plan"}; !slices.Equal(got, want) {
		t.Errorf("another session lists %v, want %v", got, want)
	}
	if got := found(other, "quasar"); len(got) != 0 {
		t.Errorf("another session finds the proposal: %v", got)
	}

	// The person accepts one hunk, one note, then the rest; after each,
	// the branch holds exactly what was accepted and the checkout follows.
	tree := func() map[string]string {
		out := map[string]string{}
		for _, f := range strings.Fields(git("ls-tree", "-r", "--name-only", "HEAD")) {
			out[f] = git("show", "HEAD:"+f)
		}
		return out
	}
	expect := func(step string, want map[string]string) {
		t.Helper()
		got := tree()
		for f, w := range want {
			if got[f] != w {
				t.Errorf("after %s, %s on the branch = %q, want %q", step, f, got[f], w)
			}
		}
		for f := range got {
			if _, ok := want[f]; !ok {
				t.Errorf("after %s, the branch holds %s", step, f)
			}
		}
		if s := gittest.Status(t, dir); s != "" {
			t.Errorf("after %s, git status = %q", step, s)
		}
	}
	commits := func() int { return len(strings.Fields(git("rev-list", "HEAD"))) }
	n := commits()

	wikidCLI(t, env, "", "proposals", "accept", id, "--repo", dir, "--note", "plan", "--hunk", "1", "--comment", "the first line only")
	want := map[string]string{"plan.md": strings.Replace(seed["plan.md"], "line 2\n", "LINE 2\n", 1), "old.md": seed["old.md"], "draft.md": seed["draft.md"], "keep.md": seed["keep.md"]}
	expect("a hunk", want)
	if who := git("log", "-1", "--format=%an|%B"); !strings.HasPrefix(who, "claude-code") || !strings.Contains(who, "the first line only") {
		t.Errorf("the hunk's commit = %q", who)
	}

	wikidCLI(t, env, "", "proposals", "accept", id, "--repo", dir, "--note", "ideas/quasar")
	want["ideas/quasar.md"] = "# Quasar\n\nA quasar, see [[plan]].\n"
	expect("a note", want)

	wikidCLI(t, env, "", "proposals", "accept", id, "--repo", dir)
	want["plan.md"] = strings.Replace(want["plan.md"], "line 19\n", "LINE 19\n", 1)
	want["filed/draft.md"] = seed["draft.md"]
	delete(want, "draft.md")
	delete(want, "old.md")
	expect("the rest", want)
	if got := commits() - n; got != 3 {
		t.Errorf("the accepts made %d commits, want 3", got)
	}
	if out := git("for-each-ref", "--format=%(refname)", "refs/wikid/"); strings.Contains(out, wiki.ProposalsRef) || !strings.Contains(out, "refs/wikid/proposals-closed/"+id) {
		t.Errorf("after accepting everything, refs/wikid holds %q", out)
	}
	if got := found(other, "quasar"); !slices.Equal(got, []string{"ideas/quasar"}) {
		t.Errorf("after the accept, another session's search for quasar = %v", got)
	}
}
