package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
)

// TestProposals_Prune makes two closed proposals with git, one closed 100
// days ago and one an hour ago, and prunes with the default keeping time
// of 90 days: --dry-run names the old one and removes nothing; prune
// removes it alone.
func TestProposals_Prune(t *testing.T) {
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "seed", map[string]string{"a.md": "# A\n"})
	closed := func(id, date string) {
		cmd := exec.Command("git", "commit-tree", "HEAD^{tree}", "-p", "HEAD", "-m",
			"reject: 1 notes of proposal "+id+"\n\nWiki-Proposal: "+id+"\nWiki-Rejected: a.md\nWiki-Closed: rejected\n")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_COMMITTER_DATE="+date, "GIT_AUTHOR_DATE="+date)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		gittest.Git(t, dir, "update-ref", "refs/wikid/proposals-closed/"+id, strings.TrimSpace(string(out)))
	}
	at := func(ago time.Duration) string { return fmt.Sprintf("@%d +0000", time.Now().Add(-ago).Unix()) }
	closed("old-1", at(100*24*time.Hour))
	closed("recent-1", at(time.Hour))
	refs := func() string { return gittest.Git(t, dir, "for-each-ref", "--format=%(refname)", "refs/wikid/") }

	dry := runOK(t, dir, "", "proposals", "prune", "--dry-run")
	if !strings.Contains(dry, "Would prune old-1") || strings.Contains(dry, "recent-1") || !strings.Contains(refs(), "old-1") {
		t.Fatalf("prune --dry-run:\n%s\nrefs:\n%s", dry, refs())
	}
	out := runOK(t, dir, "", "proposals", "prune")
	if !strings.Contains(out, "Pruned old-1") || !strings.Contains(out, "90 days") {
		t.Errorf("prune:\n%s", out)
	}
	if got := refs(); strings.Contains(got, "old-1") || !strings.Contains(got, "recent-1") {
		t.Errorf("refs after the prune:\n%s", got)
	}
	if again := runOK(t, dir, "", "proposals", "prune"); !strings.Contains(again, "No closed proposal") {
		t.Errorf("a second prune:\n%s", again)
	}
}
