package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/web"
	"github.com/wikid/wikid/internal/wiki"
)

// TestNotePage_Deleted opens the page of a note an assistant deleted, as
// the timeline links to it: its last version, who deleted it and when,
// and a restore that previews, then brings it back as git has it. Its
// links resolve as links do: [[beta-notes]] finds projects/beta-notes,
// whose title is another.
func TestNotePage_Deleted(t *testing.T) {
	w, dir := reviewWiki(t)
	ctx := context.Background()
	codex := wiki.Caller{Client: "codex/0.9", Author: wiki.Identity{Name: "codex", Email: "codex@mcp.wikid"}, Tool: "delete_note"}
	for p, content := range map[string]string{"projects/beta-notes": "# The beta\n", "people/ada": "# Ada\n\nOwns the <launch> & risks, see [[beta-notes]] and [[nowhere]].\n"} {
		if _, err := w.Write(ctx, wiki.WriteRequest{Path: p, Content: content, Overwrite: true}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Delete(ctx, wiki.DeleteRequest{Path: "people/ada", Confirm: true, Mutation: wiki.Mutation{Caller: codex}}); err != nil {
		t.Fatal(err)
	}
	deletion := head(t, dir)
	last := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%H", deletion+"~1", "--", "people/ada.md"))
	srv := httptest.NewServer(web.New(w, web.Options{Reviewer: wiki.Identity{Name: "Pat Person", Email: "pat@example.com"}}))
	defer srv.Close()
	b := newBrowser(t, srv)

	status, page := b.get("/note/people/ada")
	if status != http.StatusOK {
		t.Fatalf("GET /note/people/ada: %d\n%s", status, page)
	}
	for _, want := range []string{"This note was deleted", `by codex, in <a href="/commit/` + deletion + `">`, "Owns the ", "&amp; risks,",
		`<input type="hidden" name="version" value="` + last + `">`, "Restore this note…", `<span class="del">deleted</span>`,
		`<a href="/note/projects/beta-notes">beta-notes</a>`, "nowhere (missing)"} {
		if !strings.Contains(page, want) {
			t.Errorf("the deleted note's page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "?blame=1") {
		t.Errorf("a deleted note offers a blame:\n%s", page)
	}
	if status, _ := b.get("/note/people/nobody"); status != http.StatusNotFound {
		t.Errorf("a note that never was: %d", status)
	}

	// The restore's preview, then the restore, with the page's form.
	form := url.Values{"csrf": {csrfOf(t, page)}, "version": {last}}
	if status, _ := b.post("/note/people/ada/restore", srv.URL, form); status != http.StatusOK || head(t, dir) != deletion {
		t.Fatalf("the preview: %d, or it committed", status)
	}
	form.Set("confirm", "yes")
	if status, loc := b.post("/note/people/ada/restore", srv.URL, form); status != http.StatusSeeOther || !strings.HasPrefix(loc, "/commit/") {
		t.Fatalf("restore: %d %s", status, loc)
	}
	if got, want := gittest.Git(t, dir, "show", "HEAD:people/ada.md"), gittest.Git(t, dir, "show", last+":people/ada.md"); got != want {
		t.Errorf("restored %q, want %q", got, want)
	}
	gittest.Fsck(t, dir)
	if _, page := b.get("/note/people/ada"); strings.Contains(page, "This note was deleted") {
		t.Errorf("the restored note still reads as deleted:\n%s", page)
	}
}

// TestNotePage_Blame checks the blame against git blame: every line once,
// numbered, credited to the commit git names, and the lines whose commit
// has a Wiki-Client trailer set apart with the client's name.
func TestNotePage_Blame(t *testing.T) {
	w, dir := reviewWiki(t)
	srv := httptest.NewServer(web.New(w, web.Options{}))
	defer srv.Close()
	status, page := get(t, srv, "/note/plan?blame=1")
	if status != http.StatusOK {
		t.Fatalf("%d\n%s", status, page)
	}
	// git blame's commit for each line, and each commit's client.
	var want []string
	for _, l := range strings.Split(gittest.Git(t, dir, "blame", "--line-porcelain", "plan.md"), "\n") {
		if f := strings.Fields(l); len(f) >= 3 && len(f[0]) == 40 {
			want = append(want, f[0])
		}
	}
	rows := regexp.MustCompile(`(?s)<tr( class="assistant" title="last changed by the assistant ([^"]*)")?><td class="who"><a href="/commit/([0-9a-f]+)">.*?</tr>`).FindAllStringSubmatch(page, -1)
	line := 0
	for _, row := range rows {
		client := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%(trailers:key=Wiki-Client,valueonly)", row[3]))
		if row[2] != client {
			t.Errorf("commit %s: the page names the client %q, git %q", row[3][:7], row[2], client)
		}
		for _, n := range regexp.MustCompile(`<span class="n" id="L(\d+)">(\d+)</span>`).FindAllStringSubmatch(row[0], -1) {
			line++
			if n[2] != strconv.Itoa(line) || line > len(want) || want[line-1] != row[3] {
				t.Errorf("line %s in the row of %s: want line %d of git blame's %d", n[2], row[3][:7], line, len(want))
			}
		}
	}
	if line != len(want) || !strings.Contains(page, `title="last changed by the assistant claude-code/2.1"`) {
		t.Errorf("%d lines numbered, git blame has %d; or no assistant's line:\n%s", line, len(want), page)
	}
}

// TestSearchPage_Snippets searches notes full of links: the snippets read
// as text, the labels of wiki links and the hosts of URLs, and keep the
// matches marked.
func TestSearchPage_Snippets(t *testing.T) {
	w, dir := reviewWiki(t)
	gittest.Commit(t, dir, "links", map[string]string{
		"roadmap.md": "# Roadmap\n\nThe beta follows [[plan|the launch plan]] and [[people/ada]]; the spec is at https://specs.example.com/beta/v2/index.html and [the tracker](https://tracker.example.com/q?beta=1).\n",
	})
	if err := w.CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(web.New(w, web.Options{}))
	defer srv.Close()
	var snips string
	for _, q := range []string{"follows", "tracker"} {
		_, page := get(t, srv, "/search?q="+q)
		snips += strings.Join(regexp.MustCompile(`<p class="snippet">(.*?)</p>`).FindAllString(page, -1), "\n") + "\n"
	}
	for _, want := range []string{"<mark>follows</mark> the launch plan and people/ada", "specs.example.com", "the <mark>tracker</mark>"} {
		if !strings.Contains(snips, want) {
			t.Errorf("the snippets lack %q:\n%s", want, snips)
		}
	}
	for _, raw := range []string{"[[", "]]", "https://", "](", "|"} {
		if strings.Contains(snips, raw) {
			t.Errorf("the snippets show %q:\n%s", raw, snips)
		}
	}
}
