package gitstore

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/gitstore/internal/gitindex"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// TestStore_Commit_RolledBack moves the branch with `git update-ref` (which,
// like `git fetch` into the branch, takes no index lock) after Commit put
// the new files and index in place and before it moves the branch. The
// compare-and-swap must fail with ErrHeadMoved and leave HEAD, the index
// (bytes and time) and the worktree exactly as they were; a retry on the
// moved branch must then succeed.
func TestStore_Commit_RolledBack(t *testing.T) {
	ctx := context.Background()
	seed := map[string]string{"a.md": "alpha\n", "dir/b.md": "b\n", "keep/k.md": "k\n", "x.md": "aaaa\n"}
	edit := map[string]string{"a.md": "alpha 2\n", "dir/b.md": "", "new/deep/n.md": "n\n", "keep/k2.md": "k2\n"}
	tests := []struct {
		name  string
		setup func(t *testing.T) string
		files map[string]string
		// smudged is a racily clean file the new index must mark racy.
		smudged string
		// wantStatus is `git status --porcelain` after the retry; "" means
		// the checkout must be clean.
		wantStatus string
	}{
		{"checkout", func(t *testing.T) string {
			return seeded(t, seed)
		}, edit, "", ""},
		{"index version 4", func(t *testing.T) string {
			dir := seeded(t, seed)
			gittest.Git(t, dir, "update-index", "--index-version", "4")
			return dir
		}, edit, "", ""},
		{"executable file and restrictive permissions", func(t *testing.T) string {
			dir := seeded(t, map[string]string{"tool.md": "#!/bin/sh\n", "a.md": "alpha\n"})
			if err := os.Chmod(filepath.Join(dir, "tool.md"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(filepath.Join(dir, "a.md"), 0o600); err != nil {
				t.Fatal(err)
			}
			gittest.Git(t, dir, "add", "-A")
			gittest.Git(t, dir, "commit", "-q", "-m", "modes")
			return dir
		}, map[string]string{"tool.md": "#!/bin/sh\necho 2\n", "a.md": ""}, "", ""},
		{"racily clean entry smudged in the new index", func(t *testing.T) string {
			dir := seeded(t, seed)
			makeRacy(t, dir, "x.md", "bbbb\n")
			return dir
		}, edit, "x.md", " M x.md\n"},
		// A checkout without an index gets one only on its first commit:
		// the retry is not the first, so the index stays missing, and git
		// shows the files of HEAD as deleted from it and untracked.
		{"unborn checkout without an index", func(t *testing.T) string {
			return gittest.Init(t)
		}, map[string]string{"a.md": "a\n", "d/e/b.md": "b\n"}, "", "D  a.md\nD  d/e/b.md\n?? a.md\n?? d/\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.setup(t)
			s := openStore(t, dir)
			head, err := s.Head(ctx)
			if err != nil {
				t.Fatal(err)
			}
			index := filepath.Join(dir, ".git", "index")
			indexTime := modTime(t, index)
			before := repoState(t, dir)

			var moved string
			testHookBeforeMoveRef = func() {
				checkUpdated(t, dir, head.Commit, tc.files, tc.smudged)
				tree := head.Commit + "^{tree}"
				if head.Commit == "" {
					tree = strings.TrimSpace(gittest.Git(t, dir, "hash-object", "-w", "-t", "tree", os.DevNull))
				}
				args := []string{"commit-tree", tree, "-m", "moved by hand"}
				if head.Commit != "" {
					args = append(args, "-p", head.Commit)
				}
				moved = strings.TrimSpace(gittest.Git(t, dir, args...))
				old := head.Commit
				if old == "" {
					old = strings.Repeat("0", 40)
				}
				gittest.Git(t, dir, "update-ref", "refs/heads/main", moved, old)
			}
			t.Cleanup(func() { testHookBeforeMoveRef = nil })
			id, err := s.Commit(ctx, request(head.Commit, "edit", tc.files))
			testHookBeforeMoveRef = nil
			if !errors.Is(err, wiki.ErrHeadMoved) || id != "" {
				t.Fatalf("Commit = %q, %v; want ErrHeadMoved", id, err)
			}
			if moved == "" {
				t.Fatal("the hook did not run")
			}
			if got := rev(t, dir, "HEAD"); got != moved {
				t.Errorf("HEAD = %s, want %s (moved by hand)", got, moved)
			}
			// The worktree and the index as they were, byte for byte; the
			// branch and its reflogs are the hand's doing.
			sameState(t, dir, before, filepath.Join(".git", "refs", "heads", "main"), filepath.Join(".git", "logs"))
			if got := modTime(t, index); !got.Equal(indexTime) {
				t.Errorf("index modified at %v, was %v", got, indexTime)
			}
			gittest.Fsck(t, dir)

			id, err = s.Commit(ctx, request(moved, "edit", tc.files))
			if err != nil {
				t.Fatalf("retry on the moved branch: %v", err)
			}
			if got := rev(t, dir, "HEAD"); got != id {
				t.Errorf("HEAD = %s, want the retry %s", got, id)
			}
			if got := rev(t, dir, "HEAD^"); got != moved {
				t.Errorf("HEAD^ = %s, want %s", got, moved)
			}
			checkDisk(t, dir, tc.files)
			if tc.wantStatus == "" {
				checkCheckout(t, dir)
			} else if st := gittest.Status(t, dir); st != tc.wantStatus {
				t.Errorf("git status --porcelain = %q, want %q", st, tc.wantStatus)
			}
		})
	}
}

// checkUpdated checks the checkout in the middle of a commit, before the
// branch moves: HEAD still at parent, the new files on disk and staged, and
// the entry of smudged (if not "") marked racy in the new index.
func checkUpdated(t *testing.T, dir, parent string, files map[string]string, smudged string) {
	t.Helper()
	out, _ := gittest.TryGit(dir, "rev-parse", "--verify", "-q", "HEAD") // fails on an unborn branch
	if got := strings.TrimSpace(out); got != parent {
		t.Errorf("before the branch moved: HEAD = %q, want %q", got, parent)
	}
	checkDisk(t, dir, files)
	var want []string
	for p, content := range files {
		switch {
		case content == "":
			want = append(want, "D\t"+p+"\n")
		case parent != "" && gittest.Git(t, dir, "ls-tree", "--name-only", parent, p) != "":
			want = append(want, "M\t"+p+"\n")
		default:
			want = append(want, "A\t"+p+"\n")
		}
	}
	slices.SortFunc(want, func(a, b string) int { return strings.Compare(a[2:], b[2:]) })
	base := parent
	if base == "" {
		base = gitformat.EmptyTree.String()
	}
	if got := gittest.Git(t, dir, "diff-index", "--cached", "--name-status", base); got != strings.Join(want, "") {
		t.Errorf("before the branch moved: staged\n%swant\n%s", got, strings.Join(want, ""))
	}
	if smudged == "" {
		return
	}
	ix, err := gitindex.Read(filepath.Join(dir, ".git", "index"), nil)
	if err != nil {
		t.Fatal(err)
	}
	e, n := ix.Lookup(smudged)
	if n == 0 {
		t.Fatalf("%s is not in the index", smudged)
	}
	if size := e.Size(); size != 0 {
		t.Errorf("before the branch moved: racily clean %s not smudged in the new index (size %d)", smudged, size)
	}
}

// modTime returns the modification time of a file.
func modTime(tb testing.TB, name string) time.Time {
	tb.Helper()
	fi, err := os.Stat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return time.Time{}
	}
	if err != nil {
		tb.Fatal(err)
	}
	return fi.ModTime()
}
