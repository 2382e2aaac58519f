package wiki_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// TestWiki_Diff applies every diff with git apply to the older tree and
// checks that it gives the newer one, and compares the stats with git diff
// --numstat.
func TestWiki_Diff(t *testing.T) {
	s := newScenario(t)
	ctx := context.Background()
	commits := gitLines(t, s.dir, "log", "--format=%H")
	t.Run("what each commit changed", func(t *testing.T) {
		for _, c := range commits {
			res, err := s.w.Diff(ctx, wiki.DiffRequest{To: c})
			if err != nil {
				t.Fatalf("diff of %s: %v", c, err)
			}
			from := c + "^"
			if len(gitLines(t, s.dir, "rev-list", "--parents", "-1", c)[0]) == 40 {
				from = emptyTree
			}
			if res.To != c || (res.From == "") != (from == emptyTree) {
				t.Errorf("diff of %s: from %s to %s", c, res.From, res.To)
			}
			checkApplies(t, s.dir, from, c, res.Diff, nil)
			checkNumstat(t, s.dir, res, from, c)
		}
	})
	t.Run("one note between two commits", func(t *testing.T) {
		seed := commits[len(commits)-1]
		for _, tc := range []struct {
			path  string
			files []string
		}{
			{"a", []string{"a.md"}},
			{"c-renamed", []string{"folder/c.md", "c-renamed.md"}},
			{"folder/b2", []string{"b.md", "folder/b2.md"}},
			{"e", []string{"e.md"}},
		} {
			res, err := s.w.Diff(ctx, wiki.DiffRequest{Path: tc.path, From: seed, To: "HEAD"})
			if err != nil {
				t.Fatalf("diff of %s: %v", tc.path, err)
			}
			if len(res.Files) != 1 {
				t.Fatalf("diff of %s: files %+v", tc.path, res.Files)
			}
			checkApplies(t, s.dir, seed, "HEAD", res.Diff, tc.files)
			checkNumstat(t, s.dir, res, seed, "HEAD", tc.files...)
		}
	})
	t.Run("a note's last change by default", func(t *testing.T) {
		res, err := s.w.Diff(ctx, wiki.DiffRequest{Path: "a"})
		if err != nil {
			t.Fatal(err)
		}
		last := gitLines(t, s.dir, "log", "-1", "--format=%H", "--", "a.md")[0]
		if res.To != last || res.From != gitLines(t, s.dir, "rev-parse", last+"^")[0] {
			t.Errorf("last change of a: %s..%s, want %s^..%s", res.From, res.To, last, last)
		}
		if !strings.Contains(res.Diff, "-six\n+SIX\n") || res.Additions != 1 || res.Deletions != 1 {
			t.Errorf("last change of a:\n%s(+%d -%d)", res.Diff, res.Additions, res.Deletions)
		}
	})
	t.Run("context lines", func(t *testing.T) {
		res, err := s.w.Diff(ctx, wiki.DiffRequest{Path: "a", Context: -1})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Diff, "@@ -8 +8 @@\n-six\n+SIX\n") {
			t.Errorf("diff without context:\n%s", res.Diff)
		}
	})
	t.Run("errors", func(t *testing.T) {
		_, err := s.w.Diff(ctx, wiki.DiffRequest{To: "no-such-branch"})
		wantCode(t, err, wiki.CodeNotFound)
		_, err = s.w.Diff(ctx, wiki.DiffRequest{Path: "e", From: commits[len(commits)-1], To: commits[len(commits)-2]})
		wantCode(t, err, wiki.CodeNotFound)
		_, err = s.w.Diff(ctx, wiki.DiffRequest{Path: "nothing-here"})
		wantCode(t, err, wiki.CodeNotFound)
	})
}

// emptyTree is git's empty tree, the "parent" of a root commit.
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// checkApplies applies diff with git apply to the tree of from and checks
// that the result has to's content: for files, those files; else the whole
// tree.
func checkApplies(t *testing.T, dir, from, to, diff string, files []string) {
	t.Helper()
	patch := filepath.Join(t.TempDir(), "patch")
	if err := os.WriteFile(patch, []byte(diff), 0o644); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(t.TempDir(), "index")
	gitEnv(t, dir, index, "read-tree", from)
	if diff != "" {
		gitEnv(t, dir, index, "apply", "--cached", "--check", patch)
		gitEnv(t, dir, index, "apply", "--cached", patch)
	}
	tree := strings.TrimSpace(gitEnv(t, dir, index, "write-tree"))
	if files == nil {
		if want := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", to+"^{tree}")); tree != want {
			t.Errorf("git apply of the diff %s..%s gives tree %s, want %s:\n%s", from, to, tree, want, diff)
		}
		return
	}
	for _, f := range files {
		got, want := blobAt(dir, tree, f), blobAt(dir, to, f)
		if got != want {
			t.Errorf("git apply of the diff of %s %s..%s: %s is %q, want %q:\n%s", f, from, to, f, got, want, diff)
		}
	}
}

// blobAt returns the blob of file in a tree-ish, "" when there is none.
func blobAt(dir, treeish, file string) string {
	out, err := gittest.TryGit(dir, "rev-parse", "--verify", "-q", treeish+":"+file)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(out)
}

// gitEnv runs git with GIT_INDEX_FILE set.
func gitEnv(t *testing.T, dir, index string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(gittest.Env(), "GIT_INDEX_FILE="+index)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// checkNumstat compares the diff's files and counts with git diff
// --numstat (renames detected, as git does by default).
func checkNumstat(t *testing.T, dir string, res *wiki.DiffResult, from, to string, paths ...string) {
	t.Helper()
	args := append([]string{"diff", "-z", "--numstat", "-M", from, to, "--"}, paths...)
	out := gittest.Git(t, dir, args...)
	want := map[string][2]int{}
	fields := strings.Split(out, "\x00")
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if f == "" {
			continue
		}
		parts := strings.SplitN(f, "\t", 3)
		key := parts[2]
		if key == "" { // a rename: old and new path follow
			key = fields[i+1] + " => " + fields[i+2]
			i += 2
		}
		want[key] = [2]int{atoi(parts[0]), atoi(parts[1])}
	}
	got := map[string][2]int{}
	adds, dels := 0, 0
	for _, f := range res.Files {
		key := f.File
		if f.OldFile != "" {
			key = f.OldFile + " => " + f.File
		}
		got[key] = [2]int{f.Additions, f.Deletions}
		adds += f.Additions
		dels += f.Deletions
	}
	if len(got) != len(want) {
		t.Errorf("diff %s..%s: files %v, git diff --numstat %v", from, to, got, want)
		return
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("diff %s..%s: %s %v, git diff --numstat %v", from, to, k, got[k], v)
		}
	}
	if adds != res.Additions || dels != res.Deletions {
		t.Errorf("diff %s..%s: totals +%d -%d, files sum to +%d -%d", from, to, res.Additions, res.Deletions, adds, dels)
	}
}
