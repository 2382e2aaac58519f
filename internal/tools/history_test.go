package tools_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/history"
	"github.com/wikid/wikid/internal/index"
	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/tools/toolstest"
	"github.com/wikid/wikid/internal/wiki"
)

// historyTools are the tools of the history group.
var historyTools = []string{"activity_log", "blame_note", "diff_versions", "note_history", "restore_note", "revert_change"}

// openHistoryWiki opens a wiki over dir as wikid serve does: with its search
// index (caught up) and its history index.
func openHistoryWiki(tb testing.TB, dir string) *wiki.Wiki {
	tb.Helper()
	ctx := context.Background()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	store, err := gitstore.Open(ctx, dir, gitstore.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	idx, err := index.Open(ctx, filepath.Join(store.Dir(), "index"), index.Options{Logger: logger})
	if err != nil {
		tb.Fatal(err)
	}
	hist, err := history.Open(ctx, store, history.Options{Logger: logger})
	if err != nil {
		tb.Fatal(err)
	}
	opts := wiki.Options{Committer: wiki.Identity{Name: "wikid", Email: "wikid@example.com"}, Logger: logger}
	w, err := wiki.Open(ctx, wiki.Deps{Store: store, Index: idx, History: hist, Graph: graph.New()}, opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { w.Close(ctx) })
	if err := w.Reindex(ctx, false, nil); err != nil {
		tb.Fatal(err)
	}
	return w
}

// historyOut, diffOut, blameOut and activityOut decode the history tools'
// results.
type (
	historyOut  = wiki.HistoryResult
	blameOut    = wiki.BlameResult
	activityOut = wiki.ActivityResult
	diffOut     struct {
		wiki.DiffResult
		Truncated bool `json:"truncated"`
	}
)

// TestHistoryTools drives every history tool through the MCP client over
// HTTP, on a history made with the tools and with the git CLI, and checks
// each answer against git.
func TestHistoryTools(t *testing.T) {
	dir := toolstest.FixtureRepo(t)
	w := openHistoryWiki(t, dir)
	s := toolstest.NewSession(t, toolstest.ConnectHTTP(t, toolstest.ServeHTTP(t, w, mcpserver.Options{}, mcpserver.HTTPOptions{}), nil, toolstest.HandshakeProtocol))
	for _, name := range historyTools {
		if _, ok := s.Tools[name]; !ok {
			t.Fatalf("tools/list lacks %s", name)
		}
	}
	// History: edits through the tools, a rename and an edit with git, a
	// delete through the tools.
	toolstest.OK[toolstest.MutationOut](s, "edit_note", map[string]any{"path": "people/alice", "edits": []any{
		map[string]any{"op": "append", "content": "Alice also runs."}}})
	toolstest.OK[toolstest.MutationOut](s, "write_note", map[string]any{"path": "areas/taxes note", "content": "# Taxes\n\nfile early\n"})
	gittest.Git(t, dir, "mv", "people/alice.md", "people/alice-smith.md")
	gittest.Commit(t, dir, "rename alice", nil)
	toolstest.OK[toolstest.MutationOut](s, "edit_note", map[string]any{"path": "people/alice-smith", "edits": []any{
		map[string]any{"op": "append", "content": "Moved to Lisbon."}}})
	toolstest.OK[toolstest.MutationOut](s, "delete_note", map[string]any{"path": "people/bob", "confirm": true})

	t.Run("note_history", func(t *testing.T) {
		for _, follow := range []bool{true, false} {
			args := []string{"log", "--format=%H"}
			if follow {
				args = append(args, "--follow")
			}
			want := strings.Fields(toolstest.Git(t, dir, append(args, "--", "people/alice-smith.md")...))
			var got []string
			cursor := ""
			for {
				a := map[string]any{"path": "people/alice-smith", "follow_renames": follow, "limit": 2}
				if cursor != "" {
					a["cursor"] = cursor
				}
				out, text := toolstest.OK[historyOut](s, "note_history", a)
				for _, r := range out.Revisions {
					got = append(got, r.Commit)
					if !strings.Contains(text, r.Short) {
						t.Errorf("text lacks %s:\n%s", r.Short, text)
					}
				}
				if cursor = out.NextCursor; cursor == "" {
					break
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("follow %v: %v, git log: %v", follow, got, want)
			}
		}
		out, _ := toolstest.OK[historyOut](s, "note_history", map[string]any{"path": "people/bob"})
		if out.Exists || out.Revisions[0].Change != wiki.ChangeDeleted {
			t.Errorf("history of a deleted note: %+v", out)
		}
		s.Fail("note_history", map[string]any{"path": "nobody/here"}, "NOT_FOUND")
		s.Fail("note_history", map[string]any{"path": "people/bob", "limit": 0}, "INVALID_PARAMS")
	})
	t.Run("read_note at versions", func(t *testing.T) {
		out, _ := toolstest.OK[historyOut](s, "note_history", map[string]any{"path": "people/alice-smith"})
		for _, r := range out.Revisions {
			file := "people/alice-smith.md"
			if r.Path == "people/alice" {
				file = "people/alice.md"
			}
			read, _ := toolstest.OK[wiki.ReadResult](s, "read_note", map[string]any{"path": r.Path, "version": r.Short, "max_chars": 100000})
			if want := gittest.Git(t, dir, "show", r.Commit+":"+file); read.Content != want || read.Version != r.Version {
				t.Errorf("read at %s: %q (%s), git show: %q (%s)", r.Short, read.Content, read.Version, want, r.Version)
			}
		}
		s.Fail("read_note", map[string]any{"path": "people/alice-smith", "version": "0000000"}, "NOT_FOUND")
	})
	t.Run("diff_versions", func(t *testing.T) {
		seed := toolstest.Git(t, dir, "rev-list", "--max-parents=0", "HEAD")
		for _, args := range []map[string]any{
			{"to": "HEAD~1"},
			{"from": seed, "to": "HEAD"},
			{"path": "people/alice-smith", "from": seed},
			{"path": "people/alice-smith"},
		} {
			out, text := toolstest.OK[diffOut](s, "diff_versions", args)
			if out.Truncated || len(out.Files) == 0 || !strings.Contains(text, strings.TrimRight(out.Diff, "\n")) {
				t.Fatalf("diff %v: %+v", args, out)
			}
			checkGitApply(t, dir, out.From, out.To, out.Diff, args["path"] != nil)
			numstat := toolstest.Git(t, dir, "diff", "--numstat", "-M", out.From, out.To)
			adds, dels := 0, 0
			for _, l := range strings.Split(numstat, "\n") {
				var a, d int
				if _, err := fmt.Sscanf(l, "%d\t%d", &a, &d); err == nil {
					adds, dels = adds+a, dels+d
				}
			}
			if args["path"] == nil && (adds != out.Additions || dels != out.Deletions) {
				t.Errorf("diff %v: +%d -%d, git diff --numstat +%d -%d", args, out.Additions, out.Deletions, adds, dels)
			}
		}
		out, _ := toolstest.OK[diffOut](s, "diff_versions", map[string]any{"path": "people/alice-smith", "context": 0})
		if !strings.Contains(out.Diff, "@@ -") || strings.Contains(out.Diff, "\n Alice") {
			t.Errorf("diff without context:\n%s", out.Diff)
		}
		s.Fail("diff_versions", map[string]any{"to": "no-such-version"}, "NOT_FOUND")
	})
	t.Run("blame_note", func(t *testing.T) {
		out, text := toolstest.OK[blameOut](s, "blame_note", map[string]any{"path": "people/alice-smith"})
		var got []string
		for _, r := range out.Ranges {
			for range r.End - r.Start + 1 {
				got = append(got, r.Commit)
			}
		}
		var want []string
		for _, l := range strings.Split(toolstest.Git(t, dir, "-c", "diff.indentHeuristic=false", "blame", "--porcelain", "--", "people/alice-smith.md"), "\n") {
			if f := strings.Fields(l); len(f) >= 3 && len(f[0]) == 40 {
				want = append(want, f[0])
			}
		}
		if !slices.Equal(got, want) || !strings.Contains(text, "lines 1-") {
			t.Errorf("blame %v, git blame %v\n%s", got, want, text)
		}
		s.Fail("blame_note", map[string]any{"path": "people/alice-smith", "section": "No such heading"}, "NOT_FOUND")
	})
	t.Run("activity_log", func(t *testing.T) {
		out, _ := toolstest.OK[activityOut](s, "activity_log", map[string]any{"limit": 100})
		var got []string
		for _, c := range out.Commits {
			got = append(got, c.Commit)
		}
		if want := strings.Fields(toolstest.Git(t, dir, "log", "--format=%H")); !slices.Equal(got, want) || out.Total != len(want) {
			t.Errorf("activity %v, git log %v", got, want)
		}
		edits, _ := toolstest.OK[activityOut](s, "activity_log", map[string]any{"tool": "edit_note", "author": toolstest.ClientName})
		if want := strings.Fields(toolstest.Git(t, dir, "log", "--format=%H", "--grep", "^Wiki-Tool: edit_note$")); len(edits.Commits) != len(want) {
			t.Errorf("edit_note commits %d, git log --grep %d", len(edits.Commits), len(want))
		}
		for _, c := range edits.Commits {
			if c.Client != toolstest.WantClient || c.Author != toolstest.WantAuthor {
				t.Errorf("commit %+v", c)
			}
		}
		none, _ := toolstest.OK[activityOut](s, "activity_log", map[string]any{"since": "2999-01-01"})
		if none.Total != 0 {
			t.Errorf("commits from the future: %+v", none)
		}
		s.Fail("activity_log", map[string]any{"since": "last week"}, "INVALID_PARAMS")
		s.Fail("activity_log", map[string]any{"cursor": "x"}, "INVALID_PARAMS")
	})
	t.Run("restore_note", func(t *testing.T) {
		oldLog := toolstest.Git(t, dir, "log", "--format=%H %T %P")
		seed := toolstest.Git(t, dir, "rev-list", "--max-parents=0", "HEAD")
		before := toolstest.Git(t, dir, "rev-parse", "HEAD")
		dry, text := toolstest.OK[toolstest.MutationOut](s, "restore_note", map[string]any{"path": "people/alice-smith", "version": seed, "dry_run": true})
		if dry.Commit != "" || !strings.Contains(text, "Dry run") || toolstest.Git(t, dir, "rev-parse", "HEAD") != before {
			t.Errorf("dry run: %+v", dry)
		}
		out, _ := toolstest.OK[toolstest.MutationOut](s, "restore_note", map[string]any{"path": "people/alice-smith", "version": seed, "message": "undo the additions"})
		toolstest.CheckCommit(t, dir, before, "restore_note", out.Commit)
		if got, want := gittest.Git(t, dir, "show", "HEAD:people/alice-smith.md"), gittest.Git(t, dir, "show", seed+":people/alice.md"); got != want {
			t.Errorf("restored %q, want %q", got, want)
		}
		if toolstest.Git(t, dir, "log", "--format=%H %T %P", "HEAD~1") != oldLog {
			t.Errorf("older history changed")
		}
		before = out.Commit
		out, _ = toolstest.OK[toolstest.MutationOut](s, "restore_note", map[string]any{"path": "people/bob"})
		toolstest.CheckCommit(t, dir, before, "restore_note", out.Commit)
		if got, want := gittest.Git(t, dir, "show", "HEAD:people/bob.md"), gittest.Git(t, dir, "show", seed+":people/bob.md"); got != want {
			t.Errorf("undeleted %q, want %q", got, want)
		}
		s.Fail("restore_note", map[string]any{"path": "people/bob"}, "INVALID_PARAMS")
		s.Fail("restore_note", map[string]any{"path": "people/bob", "version": seed, "expected_version": "1234567"}, "CONFLICT")
	})
	t.Run("revert_change", func(t *testing.T) {
		w1, _ := toolstest.OK[toolstest.MutationOut](s, "write_note", map[string]any{"path": "revert-me", "content": "one\ntwo\nthree\nfour\nfive\n"})
		e1, _ := toolstest.OK[toolstest.MutationOut](s, "edit_note", map[string]any{"path": "revert-me", "edits": []any{
			map[string]any{"op": "replace", "find": "two", "content": "TWO"}}})
		toolstest.OK[toolstest.MutationOut](s, "edit_note", map[string]any{"path": "revert-me", "edits": []any{
			map[string]any{"op": "replace", "find": "five", "content": "FIVE"}}})
		before := toolstest.Git(t, dir, "rev-parse", "HEAD")
		out, text := toolstest.OK[toolstest.MutationOut](s, "revert_change", map[string]any{"commit": e1.Commit[:9]})
		toolstest.CheckCommit(t, dir, before, "revert_change", out.Commit)
		if got := gittest.Git(t, dir, "show", "HEAD:revert-me.md"); got != "one\ntwo\nthree\nfour\nFIVE\n" || !strings.Contains(text, "Reverted commit") {
			t.Errorf("after revert: %q\n%s", got, text)
		}
		toolstest.OK[toolstest.MutationOut](s, "edit_note", map[string]any{"path": "revert-me", "edits": []any{
			map[string]any{"op": "replace", "find": "FIVE", "content": "5"}}})
		before = toolstest.Git(t, dir, "rev-parse", "HEAD")
		e := s.Fail("revert_change", map[string]any{"commit": w1.Commit, "dry_run": true}, "CONFLICT")
		if cs, _ := e["conflicts"].([]any); len(cs) != 1 {
			t.Errorf("conflict details: %v", e)
		}
		if toolstest.Git(t, dir, "rev-parse", "HEAD") != before {
			t.Errorf("a conflicting revert moved HEAD")
		}
		gittest.Commit(t, dir, "not a note", map[string]string{"data.txt": "x\n"})
		before = toolstest.Git(t, dir, "rev-parse", "HEAD")
		s.Fail("revert_change", map[string]any{"commit": before}, "INVALID_PARAMS")
		if toolstest.Git(t, dir, "rev-parse", "HEAD") != before {
			t.Errorf("a failed revert moved HEAD")
		}
	})
	t.Run("recent_changes by author", func(t *testing.T) {
		out, _ := toolstest.OK[recentOut](s, "recent_changes", map[string]any{"author": toolstest.ClientName, "limit": 50})
		if out.Total == 0 {
			t.Fatalf("no notes changed by %s", toolstest.ClientName)
		}
		for _, r := range out.Results {
			if want := toolstest.Git(t, dir, "log", "-1", "--format=%an <%ae>", "--", toolstest.NoteFileOf(t, dir, r.Path)); want != toolstest.WantAuthor || r.Author != toolstest.WantAuthor {
				t.Errorf("%s: last changed by %s (%s), want %s", r.Path, want, r.Author, toolstest.WantAuthor)
			}
		}
	})
}

// recentOut decodes recent_changes.
type recentOut struct {
	Results []struct {
		Path   string `json:"path"`
		Author string `json:"author"`
	} `json:"results"`
	Total int `json:"total"`
}

// checkGitApply applies diff with git apply to the tree of from and checks
// that it gives the tree of to (for a note's diff, that note's file).
func checkGitApply(t *testing.T, dir, from, to, diff string, oneNote bool) {
	t.Helper()
	if from == "" {
		from = "4b825dc642cb6eb9a060e54bf8d69288fbee4904" // the empty tree
	}
	tmp := t.TempDir()
	patch, index := filepath.Join(tmp, "patch"), filepath.Join(tmp, "index")
	if err := os.WriteFile(patch, []byte(diff), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, append(gittest.Env(), "GIT_INDEX_FILE="+index)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s\n%s", strings.Join(args, " "), err, out, diff)
		}
		return strings.TrimSpace(string(out))
	}
	run("read-tree", from)
	run("apply", "--cached", patch)
	tree := run("write-tree")
	if !oneNote {
		if want := toolstest.Git(t, dir, "rev-parse", to+"^{tree}"); tree != want {
			t.Errorf("git apply of %s..%s gives %s, want %s", from, to, tree, want)
		}
		return
	}
	got := toolstest.Git(t, dir, "diff", "--stat", tree, to+"^{tree}", "--", "people/alice-smith.md", "people/alice.md")
	if got != "" {
		t.Errorf("git apply of the note's diff %s..%s differs from %s:\n%s", from, to, to, got)
	}
}

// TestHistoryTools_ReadOnly hides the history tools that change the wiki
// and refuses them, while the others answer.
func TestHistoryTools_ReadOnly(t *testing.T) {
	dir := toolstest.FixtureRepo(t)
	w := openHistoryWiki(t, dir)
	s := toolstest.NewSession(t, toolstest.ConnectHTTP(t, toolstest.ServeHTTP(t, w, mcpserver.Options{ReadOnly: true}, mcpserver.HTTPOptions{}), nil, toolstest.HandshakeProtocol))
	for _, name := range historyTools {
		_, listed := s.Tools[name]
		if mutating := name == "restore_note" || name == "revert_change"; listed == mutating {
			t.Errorf("%s listed: %v", name, listed)
		}
	}
	s.Fail("revert_change", map[string]any{"commit": "HEAD"}, "READ_ONLY")
	s.Fail("restore_note", map[string]any{"path": "people/bob", "version": "HEAD"}, "READ_ONLY")
	out, _ := toolstest.OK[historyOut](s, "note_history", map[string]any{"path": "people/bob"})
	if out.Total != 1 {
		t.Errorf("history of people/bob: %+v", out)
	}
}
