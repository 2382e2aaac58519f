package gitsync_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gitsync"
	"github.com/wikid/wikid/internal/gittest"
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
