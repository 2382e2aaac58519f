package gitstore

import (
	"context"
	"fmt"
	"os/exec"
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

// TestStore_ReviewNotes_Fanout reads the notes of many commits from a
// notes tree that git split into fanout folders, and checks each against
// git notes show.
func TestStore_ReviewNotes_Fanout(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	gittest.Generate(t, dir, 20, 600)
	commits := strings.Fields(gittest.Git(t, dir, "rev-list", "HEAD"))
	var stream strings.Builder
	fmt.Fprintf(&stream, "commit %s\ncommitter R <r@example.com> 1700000000 +0000\ndata 5\nmarks\n", wiki.ReviewNotesRef)
	for i, c := range commits {
		if i%3 == 0 {
			continue // some commits have no note
		}
		text := fmt.Sprintf("reviewed %d\n", i)
		fmt.Fprintf(&stream, "N inline %s\ndata %d\n%s", c, len(text), text)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Env, cmd.Stdin = dir, gittest.Env(), strings.NewReader(stream.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git fast-import: %v\n%s", err, out)
	}
	if top := gittest.Git(t, dir, "ls-tree", wiki.ReviewNotesRef); !strings.Contains(top, " tree ") {
		t.Fatalf("git wrote no fanout folders:\n%.300s", top)
	}
	want := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(gittest.Git(t, dir, "notes", "--ref="+wiki.ReviewNotesRef, "list")), "\n") {
		_, commit, _ := strings.Cut(line, " ")
		want[commit] = gittest.Git(t, dir, "notes", "--ref="+wiki.ReviewNotesRef, "show", commit)
	}
	s := openStore(t, dir)
	got, err := s.ReviewNotes(ctx, append(commits, strings.ToUpper(commits[1]), "not-a-commit"))
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 400 || len(got) != len(want)+1 {
		t.Fatalf("read %d notes, git lists %d (want 400, and one under an upper-case id)", len(got), len(want))
	}
	for c, text := range want {
		if got[c] != text {
			t.Errorf("note of %s = %q, git notes show says %q", c, got[c], text)
		}
	}
	// Notes read once are kept until the ref moves: a note git changes
	// afterwards is read anew.
	gittest.Git(t, dir, "notes", "--ref="+wiki.ReviewNotesRef, "add", "-f", "-m", "changed by git", commits[1])
	if got, err = s.ReviewNotes(ctx, commits[:2]); err != nil || got[commits[1]] != "changed by git\n" {
		t.Errorf("after git notes add: %q, %v", got, err)
	}
}
