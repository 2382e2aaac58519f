package web_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/web"
	"github.com/wikid/wikid/internal/wiki"
)

// TestChanges_UndoneAndFlagged checks that the timeline says a commit was
// undone, with a link to its undo, on the whole timeline and a filtered
// one; that "unreviewed only" keeps a flagged commit and leaves an undone
// one out; and that "flagged only" lists the flagged commits.
func TestChanges_UndoneAndFlagged(t *testing.T) {
	w, dir := reviewWiki(t)
	ctx := context.Background()
	pat := wiki.Identity{Name: "Pat Person", Email: "pat@example.com"}
	codex, claude := head(t, dir), strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD~1"))
	if err := w.Review(ctx, wiki.ReviewRequest{Commits: []string{claude}, State: wiki.Flagged, By: pat}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Revert(ctx, wiki.RevertRequest{Commit: codex, Mutation: wiki.Mutation{Caller: wiki.Caller{Client: "wikid-web", Tool: "web undo", Author: pat}}}); err != nil {
		t.Fatal(err)
	}
	undo := head(t, dir)
	srv := httptest.NewServer(web.New(w, web.Options{Reviewer: pat}))
	defer srv.Close()
	row := func(page, sha string) string {
		for _, r := range strings.Split(page, `<tr class="commit">`)[1:] {
			if strings.Contains(r, `<a href="/commit/`+sha+`">`) {
				return r
			}
		}
		return ""
	}
	undone := `<a class="undone" href="/commit/` + undo + `"`
	for _, q := range []string{"/", "/?client=codex"} {
		_, page := get(t, srv, q)
		if r := row(page, codex); !strings.Contains(r, undone) {
			t.Errorf("%s: the undone commit's row does not say so:\n%s", q, r)
		}
		if r := row(page, claude); strings.Contains(r, "undone") {
			t.Errorf("%s: a commit not undone reads as undone:\n%s", q, r)
		}
	}
	if _, page := get(t, srv, "/"); !strings.Contains(page, "all marked or undone") {
		t.Errorf("the session of the undone commit does not say it is settled:\n%s", page)
	}
	_, page := get(t, srv, "/?unreviewed=1")
	if !strings.Contains(page, `<p class="muted">1 commit still to review (unmarked or flagged), of 4.</p>`) {
		t.Errorf("unreviewed only does not count what it lists:\n%s", page)
	}
	if row(page, claude) == "" || row(page, codex) != "" {
		t.Errorf("unreviewed only: want the flagged commit and not the undone one:\n%s", page)
	}
	_, page = get(t, srv, "/?flagged=1")
	if n := strings.Count(page, `<tr class="commit">`); n != 1 || !strings.Contains(row(page, claude), `<span class="flagged"`) {
		t.Errorf("flagged only: %d rows, want the flagged commit alone:\n%s", n, page)
	}
}
