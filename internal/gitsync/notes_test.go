package gitsync_test

import (
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// TestSyncer_ReviewNotes checks that review marks travel with sync: a mark
// made on one machine reaches the other, and marks made on both are all
// kept.
func TestSyncer_ReviewNotes(t *testing.T) {
	remote := remoteWith(t, map[string]string{"plan.md": "# Plan\n"})
	a, b := cloneOf(t, remote), cloneOf(t, remote)
	a.write(t, "one", "# One\n")
	a.round(t)
	b.round(t)
	one := head(t, a.dir)
	gittest.Git(t, a.dir, "notes", "--ref=wikid-review", "add", "-m", "reviewed by A at 2026-11-25T00:00:00Z", one)
	a.round(t)
	b.round(t)
	if got := gittest.Git(t, b.dir, "notes", "--ref=wikid-review", "show", one); !strings.Contains(got, "reviewed by A") {
		t.Fatalf("B does not have A's mark: %q", got)
	}
	// Both mark the same commit, and B another: after both sync, both
	// have every mark.
	gittest.Git(t, b.dir, "notes", "--ref=wikid-review", "add", "-f", "-m", "flagged by B at 2026-11-25T01:00:00Z", one)
	b.write(t, "two", "# Two\n")
	b.round(t)
	two := head(t, b.dir)
	gittest.Git(t, b.dir, "notes", "--ref=wikid-review", "add", "-m", "reviewed by B at 2026-11-25T02:00:00Z", two)
	gittest.Git(t, a.dir, "notes", "--ref=wikid-review", "add", "-f", "-m", "reviewed by A again at 2026-11-25T03:00:00Z", one)
	b.round(t)
	a.round(t)
	b.round(t)
	for _, m := range []*machine{a, b} {
		got := gittest.Git(t, m.dir, "notes", "--ref=wikid-review", "show", one)
		if !strings.Contains(got, "flagged by B") || !strings.Contains(got, "reviewed by A again") {
			t.Errorf("%s: the marks of %s: %q", m.dir, one[:7], got)
		}
		if got := gittest.Git(t, m.dir, "notes", "--ref=wikid-review", "show", two); !strings.Contains(got, "reviewed by B") {
			t.Errorf("%s: the mark of %s: %q", m.dir, two[:7], got)
		}
		gittest.Fsck(t, m.dir)
	}
}
