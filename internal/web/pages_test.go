package web_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/web"
	"github.com/wikid/wikid/internal/wiki"
)

// TestNotePage_Reading checks what a reader meets on a note's page: the
// title once, Obsidian's callouts as titled boxes, a history whose oldest
// row starts with its link, and a blame whose text starts at one column
// whatever the number of digits of its lines.
func TestNotePage_Reading(t *testing.T) {
	w, _ := reviewWiki(t)
	ctx := context.Background()
	var long strings.Builder
	long.WriteString("# Guide\n\n> [!tip]- Read this & that\n> Sync **before** you edit.\n\n> [!warning]\n> Back up.\n\n> A plain quote.\n\n")
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&long, "Line %d.\n\n", i)
	}
	if _, err := w.Write(ctx, wiki.WriteRequest{Path: "guide", Content: long.String()}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(web.New(w, web.Options{}))
	defer srv.Close()

	_, page := get(t, srv, "/note/guide")
	if n := strings.Count(page, ">Guide</h1>"); n != 1 {
		t.Errorf("the title is shown %d times:\n%s", n, page)
	}
	for _, want := range []string{
		`<blockquote class="callout callout-green"><p class="callout-title">Read this &amp; that</p>` + "\n" + `<p>Sync <strong>before</strong> you edit.</p>`,
		`<blockquote class="callout callout-orange"><p class="callout-title">Warning</p>` + "\n" + `<p>Back up.</p>`,
		"<blockquote>\n<p>A plain quote.</p>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "[!") {
		t.Errorf("a callout shows its marker:\n%s", page)
	}

	_, page = get(t, srv, "/note/plan")
	for _, cell := range regexp.MustCompile(`<td class="num">([^<]*)<a href="/note/plan\?from=`).FindAllStringSubmatch(page, -1) {
		if strings.TrimSpace(cell[1]) != "" {
			t.Errorf("a history row's links start with %q:\n%s", cell[1], page)
		}
	}
	if !strings.Contains(page, "diff with now</a>") {
		t.Errorf("the oldest version has no diff with now:\n%s", page)
	}

	_, page = get(t, srv, "/note/guide?blame=1")
	if !strings.Contains(page, `<table class="blame" style="--digits:2ch">`) || !strings.Contains(page, `id="L9">9</span>`) {
		t.Errorf("the blame of a note of 2-digit lines does not give its numbers 2 digits:\n%s", page)
	}
}

// TestRestorePage_Title checks that the restore's preview names the
// version by its short id, a link to its commit.
func TestRestorePage_Title(t *testing.T) {
	w, dir := reviewWiki(t)
	srv := httptest.NewServer(web.New(w, web.Options{Reviewer: wiki.Identity{Name: "Pat Person", Email: "pat@example.com"}}))
	defer srv.Close()
	b := newBrowser(t, srv)
	first := strings.TrimSpace(gittest.Git(t, dir, "rev-list", "--max-parents=0", "HEAD"))
	_, page := b.get("/note/plan?version=" + first)
	status, body := b.postPage("/note/plan/restore", url.Values{"csrf": {csrfOf(t, page)}, "version": {first}})
	if want := `<h1>Restore plan as of <a href="/commit/` + first + `">` + first[:7] + `</a></h1>`; status != 200 || !strings.Contains(body, want) {
		t.Errorf("%d: the preview lacks %q:\n%s", status, want, body)
	}
}
