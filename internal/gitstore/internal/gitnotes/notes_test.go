package gitnotes

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/gittest"
)

// TestNotes writes and reads notes, and checks them with git notes: all or
// none, no note replaced unasked.
func TestNotes(t *testing.T) {
	ctx := context.Background()
	dir := gittest.Init(t)
	first := gittest.Commit(t, dir, "first", map[string]string{"a.md": "a\n"})
	second := gittest.Commit(t, dir, "second", map[string]string{"b.md": "b\n"})
	n := Notes{GitDir: filepath.Join(dir, ".git"), Ref: "refs/notes/test"}
	by := gitformat.Signature{Name: "Pat Person", Email: "pat@example.com"}
	read := func() map[string]string {
		t.Helper()
		got := map[string]string{}
		for _, c := range []string{first, second} {
			if text, err := gittest.TryGit(dir, "notes", "--ref=test", "show", c); err == nil {
				got[c] = text
			}
		}
		return got
	}
	if got := read(); len(got) != 0 {
		t.Errorf("Read = %v, want none", got)
	}
	if err := n.Write(ctx, []string{first, second}, "seen", false, by); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if got := gittest.Git(t, dir, "notes", "--ref=test", "show", first); got != "seen\n" {
		t.Errorf("git notes show = %q", got)
	}
	if got := read(); len(got) != 2 || got[second] != "seen\n" {
		t.Errorf("Read = %q", got)
	}
	ref := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", n.Ref))
	var exists *ExistsError
	if err := n.Write(ctx, []string{second}, "again", false, by); !errors.As(err, &exists) || exists.Commit != second {
		t.Errorf("Write over a note: %v, want an ExistsError", err)
	}
	if err := n.Write(ctx, []string{first, "no-such-commit"}, "again", true, by); err == nil {
		t.Error("Write with an unknown commit succeeded")
	}
	if now := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", n.Ref)); now != ref {
		t.Errorf("the failed writes moved the notes ref from %s to %s", ref, now)
	}
	if err := n.Write(ctx, []string{second}, "", false, by); err != nil {
		t.Fatalf("Write to remove: %v", err)
	}
	if got := read(); len(got) != 1 || got[first] != "seen\n" {
		t.Errorf("Read = %q, want the first's only", got)
	}
	gittest.Fsck(t, dir)
}
