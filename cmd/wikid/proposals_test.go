package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// TestProposals_CLI proposes from the command line (a .wikid.yaml that puts
// wikid-cli in propose mode; each command is a session of its own, so one
// proposal each), then lists, shows, accepts one and rejects the other,
// checking the branch with git.
func TestProposals_CLI(t *testing.T) {
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "seed", map[string]string{"a.md": "# A\n\none\ntwo\n",
		".wikid.yaml": "proposals:\n  clients: [wikid-cli]\n"})
	head := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	out := runOK(t, dir, "# A\n\none\nTWO\n", "write", "--overwrite", "a")
	if !strings.Contains(out, "proposal ") {
		t.Fatalf("write in propose mode says:\n%s", out)
	}
	runOK(t, dir, "# New\n", "write", "new")
	if now := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD")); now != head {
		t.Fatalf("the branch moved to %s", now)
	}
	list := strings.Split(strings.TrimSpace(runOK(t, dir, "", "proposals", "list")), "\n")
	if len(list) != 2 || !strings.HasPrefix(list[0], "wikid-cli-") || !strings.Contains(list[0], "1 open") {
		t.Fatalf("proposals list:\n%s", strings.Join(list, "\n"))
	}
	var id, other string
	for _, line := range list {
		p, _, _ := strings.Cut(line, " ")
		if strings.Contains(runOK(t, dir, "", "proposals", "show", p), "+TWO") {
			id = p
		} else {
			other = p
		}
	}
	if id == "" || other == "" {
		t.Fatalf("no proposal shows the edit of a")
	}
	acc := runOK(t, dir, "", "proposals", "accept", id, "--note", "a", "--comment", "thanks", "--author", "Pat <pat@example.com>")
	if !strings.Contains(acc, "Accepted: a.md") || !strings.Contains(acc, "closed: accepted") {
		t.Errorf("proposals accept:\n%s", acc)
	}
	// The author is the proposing client's (here wikid's own: git names
	// nobody in the test), the committer the person who accepts.
	if got := gittest.Git(t, dir, "log", "-1", "--format=%an|%cn|%B"); !strings.Contains(got, "|Pat|") || !strings.Contains(got, "thanks") {
		t.Errorf("the accept's commit: %q", got)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.md")); !strings.Contains(string(b), "TWO") {
		t.Errorf("a.md = %q", b)
	}
	rej := runOK(t, dir, "", "proposals", "reject", other)
	if !strings.Contains(rej, "closed: rejected") {
		t.Errorf("proposals reject:\n%s", rej)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.md")); !os.IsNotExist(err) {
		t.Errorf("new.md, rejected, is in the checkout")
	}
	if _, err := runIn(t, dir, "", "proposals", "show", id); err == nil {
		t.Errorf("show of a closed proposal succeeded")
	}
	if got := gittest.Status(t, dir); got != "" {
		t.Errorf("status:\n%s", got)
	}
}
