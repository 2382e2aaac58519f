package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/web"
)

// BenchmarkPages times the server's rendering of the changes page and of
// a commit page (budget 50 ms each) and of a note's page (budget 20 ms)
// on a generated wiki of 10,000 notes and 10,000 commits, with the
// indexes built.
func BenchmarkPages(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	gittest.Generate(b, dir, 10000, 10000)
	w := openWiki(b, dir)
	if err := w.CatchUp(ctx); err != nil {
		b.Fatal(err)
	}
	h := web.New(w, web.Options{})
	sha := strings.TrimSpace(gittest.Git(b, dir, "rev-parse", "HEAD~5"))
	notePath := strings.TrimSuffix(strings.Fields(gittest.Git(b, dir, "ls-files", "*.md"))[5000], ".md")
	for _, page := range []struct{ name, path string }{{"changes", "/"}, {"commit", "/commit/" + sha}, {"changes-filtered", "/?folder=projects"},
		{"note", "/note/" + notePath}, {"note-blame", "/note/" + notePath + "?blame=1"}} {
		b.Run(page.name, func(b *testing.B) {
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
