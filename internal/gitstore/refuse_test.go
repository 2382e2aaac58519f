package gitstore

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// repoState captures every file of a checkout except the object store, byte
// for byte, and the mode of each.
func repoState(tb testing.TB, dir string) map[string]string {
	tb.Helper()
	state := make(map[string]string)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == filepath.Join(".git", "objects") {
			return filepath.SkipDir
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			state[rel] = "link " + target
		case d.IsDir() && (rel == filepath.Join(".git", "wikid") || rel == filepath.Join(".git", "wikid", "txn")):
			// made by the first commit; a journal left in it shows
		case d.IsDir():
			state[rel] = "dir"
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			state[rel] = info.Mode().String() + " " + string(b)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return state
}

// sameState fails unless the repository is as captured, but for the paths
// ignored (relative to dir) and what is under them.
func sameState(tb testing.TB, dir string, before map[string]string, ignore ...string) {
	tb.Helper()
	after := repoState(tb, dir)
	for _, state := range []map[string]string{before, after} {
		maps.DeleteFunc(state, func(k, _ string) bool {
			return slices.ContainsFunc(ignore, func(p string) bool {
				return k == p || strings.HasPrefix(k, p+string(filepath.Separator))
			})
		})
	}
	for k, v := range before {
		if after[k] != v {
			tb.Errorf("%s changed:\n%.200q\nto\n%.200q", k, v, after[k])
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			tb.Errorf("%s appeared", k)
		}
	}
}

func TestStore_Commit_LocalChanges(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{"a.md": "a\n", "dir/b.md": "b\n", "dir/c.md": "c\n", "d.md": "d\n"}
	tests := []struct {
		name    string
		prepare func(t *testing.T, dir string)
		change  map[string]string
		reason  string
	}{
		{"modified", func(t *testing.T, dir string) {
			gittest.WriteFiles(t, dir, map[string]string{"a.md": "mine\n"})
		}, map[string]string{"a.md": "theirs\n"}, "a.md (modified)"},
		{"modified, to be deleted", func(t *testing.T, dir string) {
			gittest.WriteFiles(t, dir, map[string]string{"dir/b.md": "mine\n"})
		}, map[string]string{"dir/b.md": ""}, "dir/b.md (modified)"},
		{"untracked where the parent has none", func(t *testing.T, dir string) {
			gittest.WriteFiles(t, dir, map[string]string{"new/n.md": "mine\n"})
		}, map[string]string{"new/n.md": "theirs\n"}, "new/n.md (untracked)"},
		{"deleted", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, "d.md"))
		}, map[string]string{"d.md": "theirs\n"}, "d.md (deleted)"},
		{"staged", func(t *testing.T, dir string) {
			gittest.WriteFiles(t, dir, map[string]string{"a.md": "staged\n"})
			gittest.Git(t, dir, "add", "a.md")
			gittest.WriteFiles(t, dir, map[string]string{"a.md": "a\n"})
		}, map[string]string{"a.md": "theirs\n"}, "a.md (staged changes)"},
		{"staged new file, removed from disk", func(t *testing.T, dir string) {
			gittest.WriteFiles(t, dir, map[string]string{"s.md": "staged\n"})
			gittest.Git(t, dir, "add", "s.md")
			os.Remove(filepath.Join(dir, "s.md"))
		}, map[string]string{"s.md": "theirs\n"}, "s.md (added to the index)"},
		{"executable bit", func(t *testing.T, dir string) {
			os.Chmod(filepath.Join(dir, "a.md"), 0o755)
		}, map[string]string{"a.md": "theirs\n"}, "a.md (mode changed)"},
		{"folder is a symlink", func(t *testing.T, dir string) {
			os.RemoveAll(filepath.Join(dir, "dir"))
			other := t.TempDir()
			gittest.WriteFiles(t, other, map[string]string{"b.md": "b\n", "c.md": "c\n"})
			os.Symlink(other, filepath.Join(dir, "dir"))
		}, map[string]string{"dir/b.md": "theirs\n"}, "dir/b.md (folder dir is a symlink)"},
		{"folder is a file", func(t *testing.T, dir string) {
			gittest.WriteFiles(t, dir, map[string]string{"e": "a file\n"})
		}, map[string]string{"e/new.md": "theirs\n"}, "e/new.md (folder e is a file)"},
		{"file is a folder", func(t *testing.T, dir string) {
			gittest.WriteFiles(t, dir, map[string]string{"f.md/x": "x\n"})
		}, map[string]string{"f.md": "theirs\n"}, "f.md (untracked)"},
		{"several", func(t *testing.T, dir string) {
			gittest.WriteFiles(t, dir, map[string]string{"a.md": "mine\n", "dir/c.md": "mine\n"})
		}, map[string]string{"a.md": "x\n", "dir/b.md": "x\n", "dir/c.md": ""}, "a.md (modified), dir/c.md (modified)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := seeded(t, files)
			s := openStore(t, dir)
			head := rev(t, dir, "HEAD")
			tc.prepare(t, dir)
			before := repoState(t, dir)
			err := s.CheckWorktree(ctx, head, request(head, "edit", tc.change).Changes)
			wantCode(t, err, wiki.CodeLocalChanges)
			_, err = s.Commit(ctx, request(head, "edit", tc.change))
			wantCode(t, err, wiki.CodeLocalChanges)
			if !strings.HasSuffix(err.Error(), "changes to "+tc.reason) {
				t.Errorf("error %q does not end with %q", err, tc.reason)
			}
			var e *wiki.Error
			if errors.As(err, &e); !strings.Contains(e.Hint, "stash") {
				t.Errorf("hint %q", e.Hint)
			}
			sameState(t, dir, before)
			if got := rev(t, dir, "HEAD"); got != head {
				t.Errorf("HEAD moved to %s", got)
			}
		})
	}
	t.Run("clean paths pass", func(t *testing.T) {
		dir := seeded(t, files)
		gittest.WriteFiles(t, dir, map[string]string{"other.md": "untracked, untouched\n", "d.md": "modified, untouched\n"})
		s := openStore(t, dir)
		if err := s.CheckWorktree(ctx, rev(t, dir, "HEAD"), request("", "", map[string]string{"a.md": "A\n", "dir/b.md": "", "new.md": "n\n"}).Changes); err != nil {
			t.Fatal(err)
		}
		mustCommit(t, s, request(rev(t, dir, "HEAD"), "edit", map[string]string{"a.md": "A\n", "new.md": "n\n"}))
		if st := gittest.Status(t, dir); st != " M d.md\n?? other.md\n" {
			t.Errorf("status:\n%s", st)
		}
	})
	t.Run("bare always passes", func(t *testing.T) {
		bare := t.TempDir()
		gittest.Git(t, bare, "clone", "-q", "--bare", seeded(t, files), ".")
		s := openStore(t, bare)
		if err := s.CheckWorktree(ctx, rev(t, bare, "HEAD"), request("", "", map[string]string{"a.md": "", "zzz.md": "z\n"}).Changes); err != nil {
			t.Fatal(err)
		}
	})
}

func TestStore_Commit_Refused(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{"a.md": "a\n", "dir/b.md": "b\n"}
	tests := []struct {
		name    string
		prepare func(t *testing.T, dir string, s *Store) (wiki.CommitRequest, context.Context)
		check   func(t *testing.T, err error)
	}{
		{"detached HEAD", func(t *testing.T, dir string, s *Store) (wiki.CommitRequest, context.Context) {
			gittest.Git(t, dir, "checkout", "-q", "--detach")
			return request(rev(t, dir, "HEAD"), "edit", map[string]string{"a.md": "x\n"}), ctx
		}, func(t *testing.T, err error) {
			if !errors.Is(err, wiki.ErrDetached) {
				t.Errorf("err = %v, want ErrDetached", err)
			}
		}},
		{"branch moved", func(t *testing.T, dir string, s *Store) (wiki.CommitRequest, context.Context) {
			old := rev(t, dir, "HEAD")
			gittest.Commit(t, dir, "by hand", map[string]string{"other.md": "o\n"})
			return request(old, "edit", map[string]string{"a.md": "x\n"}), ctx
		}, func(t *testing.T, err error) {
			if !errors.Is(err, wiki.ErrHeadMoved) {
				t.Errorf("err = %v, want ErrHeadMoved", err)
			}
		}},
		{"ref lock held", func(t *testing.T, dir string, s *Store) (wiki.CommitRequest, context.Context) {
			gittest.WriteFiles(t, dir, map[string]string{".git/refs/heads/main.lock": "someone else's\n"})
			// The checkout is updated before the ref lock is taken: the
			// index, a.md and the folders made for the new file must be put
			// back, and no temporary file left.
			return request(rev(t, dir, "HEAD"), "edit", map[string]string{"a.md": "x\n", "new/deep/n.md": "n\n"}), ctx
		}, func(t *testing.T, err error) {
			if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), filepath.Join(".git", "refs", "heads", "main.lock")) {
				t.Errorf("err = %v, want ErrLocked naming the lock", err)
			}
		}},
		{"HEAD lock held", func(t *testing.T, dir string, s *Store) (wiki.CommitRequest, context.Context) {
			// git refuses to move the branch HEAD points at while HEAD.lock
			// exists; so does wikid, and it puts the checkout back.
			gittest.WriteFiles(t, dir, map[string]string{".git/HEAD.lock": "someone else's\n"})
			return request(rev(t, dir, "HEAD"), "edit", map[string]string{"a.md": "x\n", "new/n.md": "n\n"}), ctx
		}, func(t *testing.T, err error) {
			if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), filepath.Join(".git", "HEAD.lock")) {
				t.Errorf("err = %v, want ErrLocked naming the lock", err)
			}
		}},
		{"index lock held", func(t *testing.T, dir string, s *Store) (wiki.CommitRequest, context.Context) {
			gittest.WriteFiles(t, dir, map[string]string{".git/index.lock": "someone else's\n"})
			return request(rev(t, dir, "HEAD"), "edit", map[string]string{"a.md": "x\n"}), ctx
		}, func(t *testing.T, err error) {
			if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), filepath.Join(".git", "index.lock")) {
				t.Errorf("err = %v, want ErrLocked naming the lock", err)
			}
		}},
		{"context cancelled", func(t *testing.T, dir string, s *Store) (wiki.CommitRequest, context.Context) {
			c, cancel := context.WithCancel(ctx)
			cancel()
			return request(rev(t, dir, "HEAD"), "edit", map[string]string{"a.md": "x\n"}), c
		}, func(t *testing.T, err error) {
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", err)
			}
		}},
		{"delete of a missing file", request0(map[string]string{"nope.md": ""}), code(wiki.CodeNotFound)},
		{"write over a folder", request0(map[string]string{"dir": "x\n"}), code(wiki.CodeInvalidPath)},
		{"write under a file", request0(map[string]string{"a.md/x.md": "x\n"}), code(wiki.CodeInvalidPath)},
		{"path with ..", request0(map[string]string{"dir/../a.md": "x\n"}), code(wiki.CodeInvalidPath)},
		{"path in .git", request0(map[string]string{".git/hooks/pre-commit": "x\n"}), code(wiki.CodeInvalidPath)},
		{"empty message", func(t *testing.T, dir string, s *Store) (wiki.CommitRequest, context.Context) {
			return request(rev(t, dir, "HEAD"), " \n", map[string]string{"a.md": "x\n"}), ctx
		}, code(wiki.CodeInvalidParams)},
		{"bad author", func(t *testing.T, dir string, s *Store) (wiki.CommitRequest, context.Context) {
			req := request(rev(t, dir, "HEAD"), "edit", map[string]string{"a.md": "x\n"})
			req.Author.Name = "Eve <eve@example.com>"
			return req, ctx
		}, code(wiki.CodeInvalidParams)},
		{"same path twice", func(t *testing.T, dir string, s *Store) (wiki.CommitRequest, context.Context) {
			req := request(rev(t, dir, "HEAD"), "edit", map[string]string{"a.md": "x\n"})
			req.Changes = append(req.Changes, wiki.FileChange{Path: "a.md", Delete: true})
			return req, ctx
		}, code(wiki.CodeInvalidParams)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := seeded(t, files)
			s := openStore(t, dir)
			req, c := tc.prepare(t, dir, s)
			before := repoState(t, dir)
			head := rev(t, dir, "HEAD")
			start := time.Now()
			id, err := s.Commit(c, req)
			if err == nil || id != "" {
				t.Fatalf("Commit = %s, %v; want an error", id, err)
			}
			tc.check(t, err)
			if errors.Is(err, ErrLocked) && time.Since(start) < s.foreignWait {
				t.Errorf("gave up after %s, before the timeout", time.Since(start))
			}
			sameState(t, dir, before)
			if got := rev(t, dir, "HEAD"); got != head {
				t.Errorf("HEAD moved to %s", got)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// request0 prepares a request on HEAD.
func request0(files map[string]string) func(*testing.T, string, *Store) (wiki.CommitRequest, context.Context) {
	return func(t *testing.T, dir string, _ *Store) (wiki.CommitRequest, context.Context) {
		return request(rev(t, dir, "HEAD"), "edit", files), context.Background()
	}
}

// code checks an error's code.
func code(c wiki.Code) func(*testing.T, error) {
	return func(t *testing.T, err error) { wantCode(t, err, c) }
}

// TestStore_moveRef checks the compare-and-swap under the ref lock, where
// the value may be loose or packed.
func TestStore_moveRef(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "a\n"})
	c1 := rev(t, dir, "HEAD")
	c2 := gittest.Commit(t, dir, "two", map[string]string{"a.md": "b\n"})
	gittest.Git(t, dir, "pack-refs", "--all")
	s := openStore(t, dir)
	entry := reflogEntry{who: testCommitter, message: "test"}
	loose := filepath.Join(dir, ".git", "refs", "heads", "main")
	err := s.moveRef(ctx, "refs/heads/main", hash(c1), hash(c1), entry, "")
	if !errors.Is(err, wiki.ErrHeadMoved) || !strings.Contains(err.Error(), c2) {
		t.Errorf("stale old value against a packed ref: %v", err)
	}
	if _, err := os.Stat(loose + ".lock"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("lock left behind: %v", err)
	}
	if err := s.moveRef(ctx, "refs/heads/main", hash(c2), hash(c1), entry, ""); err != nil {
		t.Fatalf("move a packed ref: %v", err)
	}
	if b, _ := os.ReadFile(loose); string(b) != c1+"\n" {
		t.Errorf("loose ref = %q", b)
	}
	if err := s.moveRef(ctx, "refs/heads/main", hash(c2), hash(c2), entry, ""); !errors.Is(err, wiki.ErrHeadMoved) {
		t.Errorf("stale old value against a loose ref: %v", err)
	}
	// Only the branch HEAD points at moves: a checkout of another branch
	// since HEAD was read would take the commit.
	if err := s.moveRef(ctx, "refs/heads/new/branch", hash(""), hash(c2), entry, ""); !errors.Is(err, wiki.ErrHeadMoved) ||
		!strings.Contains(err.Error(), "HEAD points at refs/heads/main") {
		t.Errorf("a branch HEAD does not point at: %v", err)
	}
	gittest.Git(t, dir, "symbolic-ref", "HEAD", "refs/heads/new/branch")
	if err := s.moveRef(ctx, "refs/heads/new/branch", hash(""), hash(c2), entry, ""); err != nil {
		t.Fatalf("create a branch: %v", err)
	}
	if got := rev(t, dir, "new/branch"); got != c2 {
		t.Errorf("new/branch = %s", got)
	}
	gittest.Fsck(t, dir)
}

// TestStore_Commit_adoptsIdenticalUntracked checks that an untracked file
// already holding what a commit creates is adopted, not refused: a note
// someone else's git command dropped from the index, still on disk, can be
// committed again.
func TestStore_Commit_adoptsIdenticalUntracked(t *testing.T) {
	dir := seeded(t, map[string]string{"a.md": "a\n"})
	s := openStore(t, dir)
	head := rev(t, dir, "HEAD")
	gittest.WriteFiles(t, dir, map[string]string{"new/n.md": "same\n"})
	if err := s.CheckWorktree(context.Background(), head, request(head, "", map[string]string{"new/n.md": "same\n"}).Changes); err != nil {
		t.Errorf("the check before a dry run refuses what the commit adopts: %v", err)
	}
	if _, err := s.Commit(context.Background(), request(head, "restore", map[string]string{"new/n.md": "same\n"})); err != nil {
		t.Fatalf("commit over an identical untracked file: %v", err)
	}
	if st := gittest.Status(t, dir); st != "" {
		t.Errorf("status:\n%s", st)
	}
	gittest.Fsck(t, dir)
}

// TestStore_Commit_adoptsIdenticalModified checks that a tracked file whose
// content on disk, and in the index, is already what a commit writes is
// adopted, not refused: a note someone else's git command put back to an
// older version at HEAD, while the checkout kept the newer one.
func TestStore_Commit_adoptsIdenticalModified(t *testing.T) {
	for _, staged := range []bool{false, true} {
		dir := seeded(t, map[string]string{"a.md": "old\n"})
		s := openStore(t, dir)
		head := rev(t, dir, "HEAD")
		gittest.WriteFiles(t, dir, map[string]string{"a.md": "new\n"})
		if staged {
			gittest.Git(t, dir, "add", "a.md")
		}
		if err := s.CheckWorktree(context.Background(), head, request(head, "", map[string]string{"a.md": "new\n"}).Changes); err != nil {
			t.Errorf("staged %v: the check before a dry run refuses what the commit adopts: %v", staged, err)
		}
		if _, err := s.Commit(context.Background(), request(head, "restore", map[string]string{"a.md": "new\n"})); err != nil {
			t.Fatalf("staged %v: commit over an identical modified file: %v", staged, err)
		}
		if st := gittest.Status(t, dir); st != "" {
			t.Errorf("staged %v: status:\n%s", staged, st)
		}
		// A different content on disk is still a local change.
		gittest.WriteFiles(t, dir, map[string]string{"a.md": "mine\n"})
		if _, err := s.Commit(context.Background(), request(rev(t, dir, "HEAD"), "edit", map[string]string{"a.md": "theirs\n"})); wiki.CodeOf(err) != wiki.CodeLocalChanges {
			t.Errorf("staged %v: commit over a different modified file: %v, want LOCAL_CHANGES", staged, err)
		}
		gittest.Fsck(t, dir)
	}
}
