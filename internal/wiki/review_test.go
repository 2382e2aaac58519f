package wiki_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// TestWiki_Review marks commits and reads the marks back, all or none,
// and checks them as git notes.
func TestWiki_Review(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "# A\n"})
	gittest.Commit(t, dir, "second", map[string]string{"b.md": "# B\n"})
	first, second := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD~1")), strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	w := openWiki(t, dir, nil) // its clock: 2024-06-01 10:30 UTC
	pat := wiki.Identity{Name: "Pat Person", Email: "pat@example.com"}
	notes := func() string { out, _ := gittest.TryGit(dir, "notes", "--ref=wikid-review", "list"); return out }

	for _, tc := range []struct {
		name string
		req  wiki.ReviewRequest
		code wiki.Code
	}{
		{"no commit", wiki.ReviewRequest{State: wiki.Reviewed, By: pat}, wiki.CodeInvalidParams},
		{"an unknown state", wiki.ReviewRequest{Commits: []string{second}, State: "liked", By: pat}, wiki.CodeInvalidParams},
		{"nobody", wiki.ReviewRequest{Commits: []string{second}, State: wiki.Reviewed}, wiki.CodeInvalidParams},
		{"an unknown commit", wiki.ReviewRequest{Commits: []string{second, "0123456789abcdef"}, State: wiki.Reviewed, By: pat}, wiki.CodeNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := w.Review(ctx, tc.req); wiki.CodeOf(err) != tc.code {
				t.Errorf("Review = %v, want %s", err, tc.code)
			}
			if n := notes(); n != "" {
				t.Errorf("a refused request marked commits:\n%s", n)
			}
		})
	}

	if err := w.Review(ctx, wiki.ReviewRequest{Commits: []string{first[:9], "HEAD"}, State: wiki.Reviewed, By: pat}); err != nil {
		t.Fatalf("Review: %v", err)
	}
	for _, c := range []string{first, second} {
		if note := gittest.Git(t, dir, "notes", "--ref=wikid-review", "show", c); note != "reviewed by Pat Person <pat@example.com> at 2024-06-01T10:30:00Z\n" {
			t.Errorf("the note of %s: %q", c, note)
		}
	}
	marks, err := w.ReviewMarks(ctx, []string{first, second})
	want := wiki.ReviewMark{State: wiki.Reviewed, By: "Pat Person <pat@example.com>", At: time.Date(2024, 6, 1, 10, 30, 0, 0, time.UTC)}
	if err != nil || len(marks) != 2 || marks[first] != want {
		t.Errorf("ReviewMarks = %+v, %v", marks, err)
	}

	before := notes()
	err = w.Review(ctx, wiki.ReviewRequest{Commits: []string{second}, State: wiki.Flagged, By: pat})
	if wiki.CodeOf(err) != wiki.CodeConflict || !strings.Contains(err.Error(), "already marked reviewed by Pat Person") {
		t.Errorf("marking a marked commit: %v, want CONFLICT", err)
	}
	if after := notes(); after != before {
		t.Errorf("the refused mark changed the notes:\n%s", after)
	}
	if err := w.Review(ctx, wiki.ReviewRequest{Commits: []string{second}, State: wiki.Flagged, By: pat, Replace: true}); err != nil {
		t.Fatalf("flag: %v", err)
	}
	if err := w.Review(ctx, wiki.ReviewRequest{Commits: []string{first}, By: pat}); err != nil {
		t.Fatalf("clear: %v", err)
	}
	marks, err = w.ReviewMarks(ctx, []string{first, second})
	if err != nil || len(marks) != 1 || marks[second].State != wiki.Flagged {
		t.Errorf("after flagging one and clearing the other: %+v, %v", marks, err)
	}

	t.Run("read-only", func(t *testing.T) {
		ro := openWiki(t, seeded(t, map[string]string{"a.md": "# A\n"}), func(o *wiki.Options) { o.ReadOnly = true })
		if err := ro.Review(ctx, wiki.ReviewRequest{Commits: []string{"HEAD"}, State: wiki.Reviewed, By: pat}); wiki.CodeOf(err) != wiki.CodeReadOnly {
			t.Errorf("Review on a read-only wiki: %v", err)
		}
	})
}

// TestWiki_ReviewMarks_Merged reads the latest mark of a note that holds
// a mark from each of two machines, as sync merges them.
func TestWiki_ReviewMarks_Merged(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "# A\n"})
	c := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	gittest.Git(t, dir, "notes", "--ref=wikid-review", "add", "-m",
		"flagged by B <b@x> at 2026-11-25T01:00:00Z\nreviewed by A <a@x> at 2026-11-25T03:00:00Z\nflagged by C <c@x> at 2026-11-25T02:00:00Z", c)
	marks, err := openWiki(t, dir, nil).ReviewMarks(ctx, []string{c})
	want := wiki.ReviewMark{State: wiki.Reviewed, By: "A <a@x>", At: time.Date(2026, 11, 25, 3, 0, 0, 0, time.UTC)}
	if err != nil || marks[c] != want {
		t.Errorf("ReviewMarks = %+v, %v; want %+v", marks, err, want)
	}
}
