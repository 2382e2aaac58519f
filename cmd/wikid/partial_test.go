package main

import (
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// TestCommands_PartialClone runs the reading commands on a blobless partial
// clone of a wiki with history: each succeeds with its answer, and the
// history commands mark what the missing blobs leave unknown.
func TestCommands_PartialClone(t *testing.T) {
	src := gittest.Init(t)
	gittest.Commit(t, src, "one", map[string]string{"a.md": "# Alpha\n\nalpha text\n", "b.md": "# Beta\n\nsee [[a]]\n", "img.png": "\x89PNG\x00one"})
	gittest.Commit(t, src, "two", map[string]string{"a.md": "# Alpha\n\nalpha text\nsee [[b]]\n", "img.png": "\x89PNG\x00two"})
	dir := gittest.PartialClone(t, src)
	head := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "--short", "HEAD"))

	if out := runOK(t, dir, "", "search", "alpha"); !strings.Contains(out, "Found 1 note ") || !strings.Contains(out, "- Alpha (a)") {
		t.Errorf("search alpha:\n%s", out)
	}
	if out := runOK(t, dir, "", "check"); !strings.Contains(out, "0 broken links") {
		t.Errorf("check:\n%s", out)
	}
	out := runOK(t, dir, "", "history", "a")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 3 || !strings.HasPrefix(lines[1], "- "+head+" ") ||
		strings.Count(out, "lines unknown: a version is missing") != 2 {
		t.Errorf("history a: want two commits with unknown counts (? ?):\n%s", out)
	}
	if out := runOK(t, dir, "", "log"); strings.Count(out, "(lines unknown)") != 4 {
		t.Errorf("log: want four files with unknown counts:\n%s", out)
	}
	if out := runOK(t, dir, "", "blame", "a"); strings.Count(out, "^"+head+" ") != 4 {
		t.Errorf("blame a: want four lines marked ^%s:\n%s", head, out)
	}
	if out := runOK(t, dir, "", "diff", "--stat", "--to", "HEAD"); !strings.Contains(out, "- modified a (lines unknown: a version is missing") {
		t.Errorf("diff --stat --to HEAD:\n%s", out)
	}
}
