package web_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/history"
	"github.com/wikid/wikid/internal/index"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/web"
	"github.com/wikid/wikid/internal/wiki"
)

// reviewWiki is a wiki with changes from two assistants and a person.
func reviewWiki(t *testing.T) (*wiki.Wiki, string) {
	t.Helper()
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "start", map[string]string{"plan.md": "# Plan\n\nShip the beta in June.\n\n## Risks\n\nNone yet.\n"})
	w := openWiki(t, dir)
	claude := wiki.Caller{Client: "claude-code/2.1", Author: wiki.Identity{Name: "claude-code", Email: "claude-code@mcp.wikid"}, Tool: "edit_note"}
	codex := wiki.Caller{Client: "codex/0.9", Author: wiki.Identity{Name: "codex", Email: "codex@mcp.wikid"}, Tool: "write_note"}
	if _, err := w.Edit(ctx, wiki.EditRequest{Path: "plan", Edits: []note.Edit{{Op: note.OpReplace, Find: "Ship the beta in June.", Content: "Ship the beta in July."}},
		Mutation: wiki.Mutation{Caller: claude}}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(ctx, wiki.WriteRequest{Path: "people/ada", Content: "# Ada\n\nOwns the <launch> & risks.\n", Mutation: wiki.Mutation{Caller: codex}}); err != nil {
		t.Fatal(err)
	}
	return w, dir
}

// openWiki opens the wiki of the repository at dir, with its indexes.
func openWiki(tb testing.TB, dir string) *wiki.Wiki {
	tb.Helper()
	ctx := context.Background()
	store, err := gitstore.Open(ctx, dir, gitstore.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	idx, err := index.Open(ctx, filepath.Join(store.Dir(), "index"), index.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	hist, err := history.Open(ctx, store, history.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	w, err := wiki.Open(ctx, wiki.Deps{Store: store, Index: idx, History: hist, Graph: graph.New()},
		wiki.Options{Logger: slog.New(slog.DiscardHandler), Committer: wiki.Identity{Name: "wikid", Email: "wikid@example.com"}})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { w.Close(ctx) })
	return w
}

func get(t *testing.T, srv *httptest.Server, path string) (int, string) {
	t.Helper()
	res, err := http.Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestChanges checks the timeline against git log: every commit, newest
// first, with its author, client, tool and line counts.
func TestChanges(t *testing.T) {
	w, dir := reviewWiki(t)
	srv := httptest.NewServer(web.New(w, web.Options{}))
	defer srv.Close()
	status, page := get(t, srv, "/")
	if status != http.StatusOK {
		t.Fatalf("GET /: %d\n%s", status, page)
	}
	rows := regexp.MustCompile(`(?s)<tr class="commit">.*?</tr>`).FindAllString(page, -1)
	authors := strings.Split(strings.TrimSpace(gittest.Git(t, dir, "log", "--format=%an")), "\n")
	if len(rows) != len(authors) {
		t.Fatalf("%d rows, git log has %d commits:\n%s", len(rows), len(authors), page)
	}
	for i, row := range rows {
		if !strings.Contains(row, `">`+authors[i]+`</span>`) || !strings.Contains(row, `<span class="author"`) {
			t.Errorf("row %d does not name %s:\n%s", i, authors[i], row)
		}
		sha := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--skip", strconv.Itoa(i), "--format=%H"))
		add, del := 0, 0
		for _, l := range strings.Split(strings.TrimSpace(gittest.Git(t, dir, "show", "--format=", "--numstat", sha)), "\n") {
			f := strings.Fields(l)
			a, _ := strconv.Atoi(f[0])
			d, _ := strconv.Atoi(f[1])
			add, del = add+a, del+d
		}
		if !strings.Contains(row, "/commit/"+sha) || !strings.Contains(row, ">+"+strconv.Itoa(add)+"<") || !strings.Contains(row, ">−"+strconv.Itoa(del)+"<") {
			t.Errorf("row %d: want commit %s, +%d −%d:\n%s", i, sha, add, del, row)
		}
	}
	if !strings.Contains(rows[0], `title="MCP client codex/0.9, tool write_note">mcp</span>`) {
		t.Errorf("the newest row lacks its client and tool:\n%s", rows[0])
	}
	if !strings.Contains(rows[0], "Owns") && !strings.Contains(rows[0], "people/ada") {
		t.Errorf("the newest row does not name its note:\n%s", rows[0])
	}
	for q, want := range map[string]int{"author=claude-code": 1, "client=codex": 1, "client=codex/0.9": 1, "client=codex/1": 0, "tool=edit_note": 1, "folder=people": 1} {
		_, filtered := get(t, srv, "/?"+q)
		if n := strings.Count(filtered, `<tr class="commit">`); n != want {
			t.Errorf("%s: %d rows, want %d", q, n, want)
		}
		// The count above the rows counts what the filter keeps.
		said := fmt.Sprintf("<p class=\"muted\">%d commits", want)
		if want == 1 {
			said = "<p class=\"muted\">1 commit."
		}
		if !strings.Contains(filtered, said) {
			t.Errorf("%s: the page does not say %q:\n%s", q, said, filtered)
		}
	}
	if status, _ := get(t, srv, "/?since=yesterday-ish"); status != http.StatusBadRequest {
		t.Errorf("a bad date: %d", status)
	}
}

// TestCommitPage checks a commit's page against git show: its message,
// trailers and every added and removed line, the changed words marked, and
// text escaped.
func TestCommitPage(t *testing.T) {
	w, dir := reviewWiki(t)
	srv := httptest.NewServer(web.New(w, web.Options{}))
	defer srv.Close()
	for skip := range 2 {
		sha := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--skip", strconv.Itoa(skip), "--format=%H"))
		status, page := get(t, srv, "/commit/"+sha[:10])
		if status != http.StatusOK {
			t.Fatalf("GET /commit/%s: %d\n%s", sha[:10], status, page)
		}
		var want []string
		for _, l := range strings.Split(gittest.Git(t, dir, "show", "--format=", sha), "\n") {
			if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && !strings.HasPrefix(l, "+++") && !strings.HasPrefix(l, "---") {
				want = append(want, l)
			}
		}
		var got []string
		for _, m := range regexp.MustCompile(`<span class="l (add|del)">(.*?)</span>`).FindAllStringSubmatch(page, -1) {
			text := regexp.MustCompile(`</?mark>`).ReplaceAllString(m[2], "")
			text = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&", "&#43;", "+", "&#39;", "'", "&#34;", `"`).Replace(text)
			got = append(got, text)
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("commit %s: the page's lines\n%q\ngit show's\n%q", sha[:7], got, want)
		}
		msg := gittest.Git(t, dir, "log", "-1", "--format=%B", sha)
		if !strings.Contains(page, "<dt>Wiki-Tool</dt>") || !strings.Contains(msg, "Wiki-Tool:") {
			t.Errorf("commit %s: trailers not shown:\n%s", sha[:7], page)
		}
	}
	// The edit's changed word is marked, and the note's text is escaped.
	sha := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--skip", "1", "--format=%H"))
	_, page := get(t, srv, "/commit/"+sha)
	if !strings.Contains(page, "<mark>June</mark>") || !strings.Contains(page, "<mark>July</mark>") {
		t.Errorf("no word-level highlight of June → July:\n%s", page)
	}
	_, page = get(t, srv, "/commit/HEAD")
	if !strings.Contains(page, "Owns the &lt;launch&gt; &amp; risks.") {
		t.Errorf("the note's text is not escaped:\n%s", page)
	}
	if status, _ := get(t, srv, "/commit/0123456789abcdef"); status != http.StatusNotFound {
		t.Errorf("an unknown commit: %d", status)
	}
}

// TestNotePage renders a note: its properties, its markdown with wiki
// links resolved as the wiki resolves them, embedded images served, raw
// HTML left out, its backlinks and its history.
func TestNotePage(t *testing.T) {
	w, dir := reviewWiki(t)
	gittest.Commit(t, dir, "more", map[string]string{
		"launch.md": "---\ntitle: Launch\nstatus: decided\ntags: [project, beta]\n---\n# Launch\n\nSee [[plan|the plan]] and [[people/ada#Owns]] and [[nowhere]].\n\n![[chart.png]]\n\n<script>alert(1)</script>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
		"chart.png": string(pngBytes(t)),
	})
	if err := w.CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(web.New(w, web.Options{}))
	defer srv.Close()
	status, page := get(t, srv, "/note/launch")
	if status != http.StatusOK {
		t.Fatalf("GET /note/launch: %d\n%s", status, page)
	}
	for _, want := range []string{`<th>status</th><td>decided</td>`, `<a href="/note/plan">the plan</a>`, `<a href="/note/people/ada">people/ada › Owns</a>`,
		`nowhere (missing)`, `<img src="/file/chart.png"`, `<table>`, `<td>1</td>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the note page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "<script>") {
		t.Errorf("raw HTML of the note reached the page:\n%s", page)
	}
	if status, img := get(t, srv, "/file/chart.png"); status != http.StatusOK || img != string(pngBytes(t)) {
		t.Errorf("the image: %d, %d bytes", status, len(img))
	}
	_, plan := get(t, srv, "/note/plan")
	if !strings.Contains(plan, `<a href="/note/launch">Launch</a>`) {
		t.Errorf("the plan's backlinks lack launch:\n%s", plan)
	}
	if n, want := strings.Count(plan, `<a href="/commit/`), len(strings.Fields(gittest.Git(t, dir, "log", "--format=%h", "--", "plan.md"))); n != want {
		t.Errorf("the plan's history lists %d commits, git log %d", n, want)
	}
	_, blame := get(t, srv, "/note/plan?blame=1")
	july := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%h", "--grep=edit: plan"))
	if m := regexp.MustCompile(`(?s)<tr[ >].*?</tr>`).FindAllString(blame, -1); !slices.ContainsFunc(m, func(r string) bool {
		return strings.Contains(r, "Ship the beta in July.") && strings.Contains(r, ">"+july)
	}) {
		t.Errorf("blame does not credit %s with July:\n%s", july, blame)
	}
	if !strings.Contains(plan, "what it changed</a>") || !strings.Contains(plan, "diff with now</a>") {
		t.Errorf("the plan's history lacks its diff links:\n%s", plan)
	}
	if status, _ := get(t, srv, "/note/no/such"); status != http.StatusNotFound {
		t.Errorf("a missing note: %d", status)
	}
}

func pngBytes(t *testing.T) []byte {
	var b bytes.Buffer
	m := image.NewRGBA(image.Rect(0, 0, 4, 4))
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestBrowseAndSearch lists folders and notes, and searches with snippets,
// the note's text escaped and the matches marked.
func TestBrowseAndSearch(t *testing.T) {
	w, _ := reviewWiki(t)
	if err := w.CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(web.New(w, web.Options{}))
	defer srv.Close()
	_, root := get(t, srv, "/browse/")
	if !strings.Contains(root, `<a href="/browse/people">people/</a> <span class="muted">1 notes</span>`) || !strings.Contains(root, `<a href="/note/plan">Plan</a>`) {
		t.Errorf("the root:\n%s", root)
	}
	_, people := get(t, srv, "/browse/people")
	if !strings.Contains(people, `<a href="/note/people/ada">Ada</a>`) {
		t.Errorf("people/:\n%s", people)
	}
	if status, _ := get(t, srv, "/browse/nowhere"); status != http.StatusNotFound {
		t.Errorf("a missing folder: %d", status)
	}
	_, found := get(t, srv, "/search?q=launch")
	if !strings.Contains(found, `<a href="/note/people/ada">Ada</a>`) || !strings.Contains(found, "Owns the &lt;<mark>launch</mark>&gt; &amp; risks.") {
		t.Errorf("search:\n%s", found)
	}
	if status, page := get(t, srv, "/search?q=tag:("); status != http.StatusBadRequest {
		t.Errorf("a bad query: %d\n%s", status, page)
	}
}
