package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/web"
	"github.com/wikid/wikid/internal/wiki"
)

// BenchmarkPages times the server's rendering of the changes page (budget
// 5 ms, with review marks), of a commit page (budget 50 ms), of a note's
// page (budget 20 ms) and of a deleted note's page (its links resolved
// without a graph of their own: budget 20 ms, as a note's) on a generated
// wiki of 10,000 notes and 10,000 commits, with the indexes built.
func BenchmarkPages(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	gittest.Generate(b, dir, 10000, 10000)
	w := openWiki(b, dir)
	if err := w.CatchUp(ctx); err != nil {
		b.Fatal(err)
	}
	files := strings.Fields(gittest.Git(b, dir, "ls-files", "*.md"))
	deletedPath := strings.TrimSuffix(files[4000], ".md")
	if _, err := w.Delete(ctx, wiki.DeleteRequest{Path: deletedPath, Confirm: true}); err != nil {
		b.Fatal(err)
	}
	if err := w.CatchUp(ctx); err != nil {
		b.Fatal(err)
	}
	h := web.New(w, web.Options{})
	sha := strings.TrimSpace(gittest.Git(b, dir, "rev-parse", "HEAD~5"))
	// The changes page as it is read once people review: every other
	// commit of its first page marked, in a notes ref of 500 notes.
	var marked []string
	for i := 0; i < 1000; i += 2 {
		marked = append(marked, fmt.Sprintf("HEAD~%d", i))
	}
	markedPage := func(b *testing.B) {
		if err := w.Review(ctx, wiki.ReviewRequest{Commits: marked, State: wiki.Reviewed, By: wiki.Identity{Name: "Pat", Email: "pat@example.com"}}); err != nil {
			b.Fatal(err)
		}
	}
	notePath := strings.TrimSuffix(files[5000], ".md")
	for _, page := range []struct{ name, path string }{{"changes", "/"}, {"changes-marked", "/"}, {"commit", "/commit/" + sha}, {"changes-filtered", "/?folder=projects"},
		{"note", "/note/" + notePath}, {"note-blame", "/note/" + notePath + "?blame=1"},
		{"note-deleted", "/note/" + deletedPath}} {
		b.Run(page.name, func(b *testing.B) {
			if page.name == "changes-marked" && len(gittest.Git(b, dir, "notes", "--ref="+wiki.ReviewNotesRef, "list")) == 0 {
				markedPage(b)
			}
			for b.Loop() {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, page.path, nil))
				if rec.Code != http.StatusOK {
					b.Fatalf("%s: %d", page.path, rec.Code)
				}
			}
		})
	}
}
