package gitstore

import (
	"context"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// TestStore_ReviewNotes writes and reads review notes, and checks them
// with git notes: one ref, all or none, no note replaced unasked.
func TestStore_ReviewNotes(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "a\n"})
	gittest.Commit(t, dir, "second", map[string]string{"b.md": "b\n"})
	first, second := rev(t, dir, "HEAD~1"), rev(t, dir, "HEAD")
	s := openStore(t, dir)
	notes := func() string {
		out, _ := gittest.TryGit(dir, "notes", "--ref="+wiki.ReviewNotesRef, "list")
		return out
	}
	read := func() map[string]string {
		t.Helper()
		got, err := s.ReviewNotes(ctx, []string{first, second})
		if err != nil {
			t.Fatalf("ReviewNotes: %v", err)
		}
		return got
	}

	t.Run("none yet", func(t *testing.T) {
		if got := read(); len(got) != 0 {
			t.Errorf("ReviewNotes = %v, want none", got)
		}
	})
	t.Run("write two", func(t *testing.T) {
		err := s.WriteReviewNotes(ctx, wiki.ReviewNotesRequest{Commits: []string{first, second}, Text: "reviewed by A <a@x> at 2026-01-02T03:04:05Z",
			By: wiki.Signature{Name: "Pat Person", Email: "pat@example.com", When: testAuthor.When}})
		if err != nil {
			t.Fatalf("WriteReviewNotes: %v", err)
		}
		for _, c := range []string{first, second} {
			if got := gittest.Git(t, dir, "notes", "--ref=wikid-review", "show", c); got != "reviewed by A <a@x> at 2026-01-02T03:04:05Z\n" {
				t.Errorf("git notes show %s = %q", c, got)
			}
		}
		if by := gittest.Git(t, dir, "log", "-1", "--format=%an <%ae> %ad", "--date=iso-strict", wiki.ReviewNotesRef); by != "Pat Person <pat@example.com> 2024-03-04T05:06:07+05:30\n" {
			t.Errorf("the notes commit is by %q", by)
		}
		if got := read(); len(got) != 2 || got[second] != "reviewed by A <a@x> at 2026-01-02T03:04:05Z\n" {
			t.Errorf("ReviewNotes = %q", got)
		}
	})
	t.Run("no note replaced unasked", func(t *testing.T) {
		before := notes()
		err := s.WriteReviewNotes(ctx, wiki.ReviewNotesRequest{Commits: []string{second}, Text: "flagged by B <b@x> at 2026-01-03T00:00:00Z",
			By: wiki.Signature{Name: "B", Email: "b@x"}})
		if wiki.CodeOf(err) != wiki.CodeConflict {
			t.Fatalf("WriteReviewNotes over a note: %v, want CONFLICT", err)
		}
		if after := notes(); after != before {
			t.Errorf("the refused write changed the notes:\n%s", after)
		}
	})
	t.Run("all or none", func(t *testing.T) {
		ref := rev(t, dir, wiki.ReviewNotesRef)
		err := s.WriteReviewNotes(ctx, wiki.ReviewNotesRequest{Commits: []string{first, "no-such-commit"}, Text: "flagged by B <b@x> at 2026-01-03T00:00:00Z",
			Replace: true, By: wiki.Signature{Name: "B", Email: "b@x"}})
		if err == nil {
			t.Fatal("WriteReviewNotes with an unknown commit succeeded")
		}
		if now := rev(t, dir, wiki.ReviewNotesRef); now != ref {
			t.Errorf("the notes ref moved from %s to %s", ref, now)
		}
		if got := gittest.Git(t, dir, "notes", "--ref=wikid-review", "show", first); !strings.HasPrefix(got, "reviewed by A") {
			t.Errorf("the first commit's note is %q", got)
		}
	})
	t.Run("remove", func(t *testing.T) {
		if err := s.WriteReviewNotes(ctx, wiki.ReviewNotesRequest{Commits: []string{second}, By: wiki.Signature{Name: "B", Email: "b@x"}}); err != nil {
			t.Fatalf("WriteReviewNotes: %v", err)
		}
		if got := read(); len(got) != 1 || got[first] == "" {
			t.Errorf("ReviewNotes = %q, want the first's only", got)
		}
	})
	gittest.Fsck(t, dir)
	if st := gittest.Status(t, dir); st != "" {
		t.Errorf("git status: %s", st)
	}
}
