package gitsync_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gitsync"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// TestGuard_CheckRewinds moves the branch back past an acknowledged wikid
// commit as `git stash` does when its reset to HEAD races the commit (the
// reset read HEAD before the commit and moved the branch after it, with the
// reflog message "reset: moving to HEAD"): the guard must put the note
// back. A deliberate reset to an older commit must be respected.
func TestGuard_CheckRewinds(t *testing.T) {
	ctx := context.Background()
	remote := remoteWith(t, map[string]string{"plan.md": "# Plan\n"})
	m := cloneOf(t, remote)
	g := gitsync.NewGuard(m.w, m.dir, nil)
	g.CheckRewinds(ctx)

	before := head(t, m.dir)
	m.write(t, "inbox/new", "# New\n\nAcknowledged.\n")
	acked := head(t, m.dir)
	gittest.Git(t, m.dir, "update-ref", "-m", "reset: moving to HEAD", "refs/heads/main", before, acked)
	gittest.Git(t, m.dir, "reset", "-q", "--hard", "HEAD")
	if _, err := gittest.TryGit(m.dir, "cat-file", "-e", "HEAD:inbox/new.md"); err == nil {
		t.Fatal("the setup did not take the note off the branch")
	}
	g.CheckRewinds(ctx)
	if got := show(t, m.dir, "HEAD", "inbox/new.md"); got != "# New\n\nAcknowledged.\n" {
		t.Errorf("HEAD has %q", got)
	}
	if r := g.Restored(); len(r) != 1 || !strings.HasPrefix(r[0], "inbox/new.md") {
		t.Errorf("Restored() = %v", r)
	}
	if msg := gittest.Git(t, m.dir, "log", "-1", "--format=%B"); !strings.Contains(msg, "git stash") || !strings.Contains(msg, "Wiki-Tool: guard") {
		t.Errorf("message:\n%s", msg)
	}
	if st := gittest.Status(t, m.dir); st != "" {
		t.Errorf("git status:\n%s", st)
	}
	gittest.Fsck(t, m.dir)

	// A reset the person meant: respected.
	m.write(t, "inbox/second", "# Second\n")
	gittest.Git(t, m.dir, "reset", "-q", "--hard", "HEAD~1")
	g.CheckRewinds(ctx)
	if _, err := gittest.TryGit(m.dir, "cat-file", "-e", "HEAD:inbox/second.md"); err == nil {
		t.Error("the guard undid a deliberate reset")
	}
	if r := g.Restored(); len(r) != 1 {
		t.Errorf("Restored() = %v", r)
	}
}

// rewind takes the branch of m back to before, as a `git stash` whose reset
// to HEAD raced wikid's commits does, and checks that it did.
func rewind(t *testing.T, m *machine, before string) {
	t.Helper()
	gittest.Git(t, m.dir, "update-ref", "-m", "reset: moving to HEAD", "refs/heads/main", before, head(t, m.dir))
	gittest.Git(t, m.dir, "reset", "-q", "--hard", "HEAD")
}

// exists reports whether rev has file.
func exists(dir, rev, file string) bool {
	_, err := gittest.TryGit(dir, "cat-file", "-e", rev+":"+file)
	return err == nil
}

// TestGuard_CheckRewindsRemovals rewinds acknowledged moves and deletes:
// the guard must put back both sides of a move (the new path present, the
// old one gone) and keep a deleted note deleted, in one commit, and must
// not remove a note the person changed since.
func TestGuard_CheckRewindsRemovals(t *testing.T) {
	ctx := context.Background()
	setup := func(t *testing.T) (*machine, *gitsync.Guard) {
		remote := remoteWith(t, map[string]string{
			"plan.md":      "# Plan\n\nSee [the draft](draft.md).\n",
			"draft.md":     "# Draft\n",
			"old/notes.md": "# Notes\n",
		})
		m := cloneOf(t, remote)
		g := gitsync.NewGuard(m.w, m.dir, nil)
		g.CheckRewinds(ctx)
		return m, g
	}

	t.Run("a rewound move is moved again", func(t *testing.T) {
		m, g := setup(t)
		before := head(t, m.dir)
		if _, err := m.w.Move(ctx, wiki.MoveRequest{Path: "draft", NewPath: "ideas/draft"}); err != nil {
			t.Fatal(err)
		}
		moved := show(t, m.dir, "HEAD", "plan.md")
		rewind(t, m, before)
		if !exists(m.dir, "HEAD", "draft.md") || exists(m.dir, "HEAD", "ideas/draft.md") {
			t.Fatal("the setup did not take the move off the branch")
		}
		g.CheckRewinds(ctx)
		if exists(m.dir, "HEAD", "draft.md") {
			t.Error("the note is still at its old path: it exists twice")
		}
		if got := show(t, m.dir, "HEAD", "ideas/draft.md"); got != "# Draft\n" {
			t.Errorf("HEAD has %q at the new path", got)
		}
		if got := show(t, m.dir, "HEAD", "plan.md"); got != moved {
			t.Errorf("the rewritten link is not back: %q", got)
		}
		if n := gittest.Git(t, m.dir, "rev-list", "--count", before+"..HEAD"); strings.TrimSpace(n) != "1" {
			t.Errorf("%s commits after the rewind, want 1", strings.TrimSpace(n))
		}
		if _, err := os.Stat(filepath.Join(m.dir, "draft.md")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the old file is still checked out: %v", err)
		}
		if st := gittest.Status(t, m.dir); st != "" {
			t.Errorf("git status:\n%s", st)
		}
		if r := g.Restored(); len(r) != 3 {
			t.Errorf("Restored() = %v", r)
		}
		gittest.Fsck(t, m.dir)
	})

	t.Run("a rewound delete stays deleted", func(t *testing.T) {
		m, g := setup(t)
		before := head(t, m.dir)
		if _, err := m.w.Delete(ctx, wiki.DeleteRequest{Path: "old/notes", Confirm: true}); err != nil {
			t.Fatal(err)
		}
		rewind(t, m, before)
		if !exists(m.dir, "HEAD", "old/notes.md") {
			t.Fatal("the setup did not take the delete off the branch")
		}
		g.CheckRewinds(ctx)
		if exists(m.dir, "HEAD", "old/notes.md") {
			t.Error("the deleted note came back")
		}
		if msg := gittest.Git(t, m.dir, "log", "-1", "--format=%B"); !strings.Contains(msg, "old/notes.md") || !strings.Contains(msg, "Wiki-Tool: guard") {
			t.Errorf("message:\n%s", msg)
		}
		if st := gittest.Status(t, m.dir); st != "" {
			t.Errorf("git status:\n%s", st)
		}
		gittest.Fsck(t, m.dir)
	})

	t.Run("a note the person changed since is not removed", func(t *testing.T) {
		m, g := setup(t)
		before := head(t, m.dir)
		if _, err := m.w.Delete(ctx, wiki.DeleteRequest{Path: "old/notes", Confirm: true}); err != nil {
			t.Fatal(err)
		}
		m.write(t, "inbox/new", "# New\n")
		rewind(t, m, before)
		gittest.Commit(t, m.dir, "keep my notes", map[string]string{"old/notes.md": "# Notes\n\nMine.\n"})
		g.CheckRewinds(ctx)
		if got := show(t, m.dir, "HEAD", "old/notes.md"); got != "# Notes\n\nMine.\n" {
			t.Errorf("the person's note is %q", got)
		}
		if got := show(t, m.dir, "HEAD", "inbox/new.md"); got != "# New\n" {
			t.Errorf("HEAD has %q", got)
		}
		if r := g.Restored(); len(r) != 1 || !strings.HasPrefix(r[0], "inbox/new.md") {
			t.Errorf("Restored() = %v", r)
		}
		if msg := gittest.Git(t, m.dir, "log", "-1", "--format=%B"); !strings.Contains(msg, "kept as they are now: old/notes.md.") {
			t.Errorf("message:\n%s", msg)
		}
		gittest.Fsck(t, m.dir)
	})

	t.Run("a local change to the old path waits", func(t *testing.T) {
		m, g := setup(t)
		before := head(t, m.dir)
		if _, err := m.w.Move(ctx, wiki.MoveRequest{Path: "draft", NewPath: "ideas/draft"}); err != nil {
			t.Fatal(err)
		}
		rewind(t, m, before)
		gittest.WriteFiles(t, m.dir, map[string]string{"draft.md": "# Draft\n\nTyping.\n"})
		g.CheckRewinds(ctx)
		if exists(m.dir, "HEAD", "ideas/draft.md") || !exists(m.dir, "HEAD", "draft.md") {
			t.Error("the guard moved a note with uncommitted changes")
		}
		if got, err := os.ReadFile(filepath.Join(m.dir, "draft.md")); err != nil || string(got) != "# Draft\n\nTyping.\n" {
			t.Errorf("the person's file is %q, %v", got, err)
		}
	})
}
