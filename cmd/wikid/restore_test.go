package main

import (
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

func TestRestoreCommand_Run(t *testing.T) {
	dir := historyRepo(t)
	before := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	out := runOK(t, dir, "", "restore", "--dry-run", "renamed", "HEAD~1")
	if !strings.Contains(out, "Dry run") || !strings.Contains(out, "-ONE\n+one\n") {
		t.Errorf("restore --dry-run:\n%s", out)
	}
	out = runOK(t, dir, "", "restore", "-m", "back to one", "renamed", "HEAD~1")
	if !strings.HasPrefix(out, "Restored note renamed to the version of HEAD~1 (+1 -2; commit ") {
		t.Errorf("restore:\n%s", out)
	}
	if got, want := gittest.Git(t, dir, "show", "HEAD:renamed.md"), gittest.Git(t, dir, "show", "HEAD~2:renamed.md"); got != want {
		t.Errorf("restored %q, want %q", got, want)
	}
	if parent := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD~1")); parent != before {
		t.Errorf("restore made more than one commit")
	}
	runOK(t, dir, "", "rm", "b")
	out = runOK(t, dir, "", "restore", "b")
	if !strings.HasPrefix(out, "Restored note b to its last version (+1 -0; commit ") || gittest.Git(t, dir, "show", "HEAD:b.md") != "# B\n" {
		t.Errorf("undelete:\n%s", out)
	}
	if _, err := runIn(t, dir, "", "restore", "b"); err == nil || !strings.Contains(err.Error(), "INVALID_PARAMS") {
		t.Errorf("restore of an existing note without a version: %v", err)
	}
	if st := gittest.Status(t, dir); st != "" {
		t.Errorf("git status after restores:\n%s", st)
	}
}

func TestRevertCommand_Run(t *testing.T) {
	dir := historyRepo(t)
	write := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	want := gittest.Git(t, dir, "show", "HEAD~1:renamed.md")
	out := runOK(t, dir, "", "revert", write[:8])
	if !strings.HasPrefix(out, "Reverted commit "+write[:8]+" (+1 -2; commit ") {
		t.Errorf("revert:\n%s", out)
	}
	if got := gittest.Git(t, dir, "show", "HEAD:renamed.md"); got != want {
		t.Errorf("after revert: %q, want %q", got, want)
	}
	if subject := gittest.Git(t, dir, "log", "-1", "--format=%s"); !strings.HasPrefix(subject, "revert: "+write[:7]+" write: renamed") {
		t.Errorf("subject %q", subject)
	}
	// The edit before the rename made outside wikid, under a later edit of
	// the same lines: git revert conflicts too.
	runOK(t, dir, "# A\n\none\ntwo\nthree\nFOUR\n", "write", "--overwrite", "renamed")
	edit := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--diff-filter=M", "--format=%H", "--", "a.md"))
	_, err := runIn(t, dir, "", "revert", edit)
	if err == nil || !strings.Contains(err.Error(), "CONFLICT") || !strings.Contains(err.Error(), "renamed, line 6:\n<<<<<<< now\nFOUR\n") {
		t.Errorf("revert under an overlapping edit: %v", err)
	}
	if st := gittest.Status(t, dir); st != "" {
		t.Errorf("git status after reverts:\n%s", st)
	}
}
