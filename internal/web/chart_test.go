package web_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/web"
)

// TestChanges_Chart checks that the timeline draws its period's changes by
// client and by folder, summarised for screen readers.
func TestChanges_Chart(t *testing.T) {
	w, _ := reviewWiki(t)
	srv := httptest.NewServer(web.New(w, web.Options{}))
	defer srv.Close()
	t.Run("all", func(t *testing.T) {
		status, page := get(t, srv, "/")
		if status != http.StatusOK {
			t.Fatalf("GET /: %d\n%s", status, page)
		}
		for _, want := range []string{
			`<svg viewBox="0 0 360 116" role="img" aria-label="3 changes in 30 days; claude-code 1, codex 1, people 1"`,
			`<title id="chart-client-title">Changes per day</title>`,
			`<span class="sw speople"></span>people 1</li>`,
			`aria-label="Changes by folder: (top level) 2, people 1"`,
		} {
			if !strings.Contains(page, want) {
				t.Errorf("the page lacks %s:\n%s", want, page)
			}
		}
	})
	t.Run("filtered", func(t *testing.T) {
		_, page := get(t, srv, "/?client=codex")
		if !strings.Contains(page, `aria-label="1 change in 30 days; codex 1"`) {
			t.Errorf("the chart of codex's changes:\n%s", page)
		}
	})
	t.Run("empty", func(t *testing.T) {
		_, page := get(t, srv, "/?since=2001-01-01&until=2001-01-31")
		if !strings.Contains(page, "No changes in these 30 days.") || strings.Contains(page, "<svg") {
			t.Errorf("an empty period draws no chart:\n%s", page)
		}
	})
}

// TestNote_LinkMap checks that a note's page draws its neighbours, each a
// link to its page, and says so when it has none.
func TestNote_LinkMap(t *testing.T) {
	w := openWiki(t, chartWiki(t))
	srv := httptest.NewServer(web.New(w, web.Options{}))
	defer srv.Close()
	_, page := get(t, srv, "/note/projects/launch")
	for _, want := range []string{
		`aria-label="Launch plan for the June beta: 10 notes link here, it links to 10 notes"`,
		`<a href="/note/journal/2026-02-10"><title>2026-02-10</title>`,
		`<a href="/note/projects/step-0"><title>Step 0 of the launch</title>`,
		`>and 2 more</text>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the note's page lacks %s:\n%s", want, page)
		}
	}
	if _, page := get(t, srv, "/note/areas/note-0"); !strings.Contains(page, "No note links here, and this note links to none.") {
		t.Errorf("a note without links:\n%s", page)
	}
}
