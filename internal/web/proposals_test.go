package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/web"
	"github.com/wikid/wikid/internal/wiki"
)

func lines(n int, f string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, f+"\n", i)
	}
	return b.String()
}

// proposalWiki is a wiki with one proposal of a proposing session: a new
// note, an edit of three places of a long note, an edit of plan.md and the
// deletion of old.md. It returns the wiki, its directory and the
// proposal's id.
func proposalWiki(tb testing.TB) (*wiki.Wiki, string, string) {
	tb.Helper()
	ctx := context.Background()
	dir := gittest.Init(tb)
	gittest.Commit(tb, dir, "start", map[string]string{"long.md": lines(40, "line %d"), "plan.md": "# Plan\n\nShip in June.\n", "old.md": "# Old\n\nstale\n"})
	w := openWiki(tb, dir)
	me := wiki.Caller{Client: "claude-code/2.1", Session: "s1", Propose: true, Author: wiki.Identity{Name: "claude-code", Email: "claude-code@mcp.wikid"}}
	m := wiki.Mutation{Caller: me, Message: "Tidy the plan and the long note"}
	res, err := w.Write(ctx, wiki.WriteRequest{Path: "people/ada", Content: "# Ada\n\nOwns the launch.\n", Mutation: m})
	if err != nil {
		tb.Fatal(err)
	}
	edits := []note.Edit{{Op: note.OpReplace, Find: "line 3\n", Content: "LINE 3\n"}, {Op: note.OpReplace, Find: "line 20\n", Content: "LINE 20\n"}, {Op: note.OpReplace, Find: "line 37\n", Content: "LINE 37\n"}}
	if _, err := w.Edit(ctx, wiki.EditRequest{Path: "long", Edits: edits, Mutation: m}); err != nil {
		tb.Fatal(err)
	}
	if _, err := w.Edit(ctx, wiki.EditRequest{Path: "plan", Edits: []note.Edit{{Op: note.OpReplace, Find: "June", Content: "July"}}, Mutation: m}); err != nil {
		tb.Fatal(err)
	}
	if _, err := w.Delete(ctx, wiki.DeleteRequest{Path: "old", Confirm: true, Mutation: m}); err != nil {
		tb.Fatal(err)
	}
	return w, dir, res.Proposal
}

// TestProposalPages reviews a proposal in the pages: the list, the
// proposal's notes with their diffs, a refused forged form, a hunk
// accepted and one rejected, a note that does not merge shown and not
// written, then the rest rejected, which closes it.
func TestProposalPages(t *testing.T) {
	w, dir, id := proposalWiki(t)
	reviewer := wiki.Identity{Name: "Pat Person", Email: "pat@example.com"}
	srv := httptest.NewServer(web.New(w, web.Options{Reviewer: reviewer}))
	defer srv.Close()
	b := newBrowser(t, srv)
	start := head(t, dir)

	_, list := b.get("/proposals")
	for _, want := range []string{`href="/proposals/` + id + `"`, "4 open", `<span class="add">+7</span>`, `href="/proposals"`} {
		if !strings.Contains(list, want) {
			t.Errorf("the proposals page lacks %q:\n%s", want, list)
		}
	}
	status, page := b.get("/proposals/" + id)
	if status != http.StatusOK {
		t.Fatalf("proposal page: %d\n%s", status, page)
	}
	for _, want := range []string{"people/ada", "Ship in <mark>July</mark>", `value="accept:3:long.md"`, `value="reject::old.md"`, `value="accept::"`, "Tidy the plan and the long note"} {
		if !strings.Contains(page, want) {
			t.Errorf("the proposal's page lacks %q", want)
		}
	}
	token := csrfOf(t, page)
	decide := "/proposals/" + id + "/decide"
	for _, tc := range []struct {
		name, origin string
		form         url.Values
	}{
		{"no CSRF token", srv.URL, url.Values{"act": {"accept::"}}},
		{"a foreign origin", "https://evil.example", url.Values{"act": {"accept::"}, "csrf": {token}}},
	} {
		if status, _ := b.post(decide, tc.origin, tc.form); status != http.StatusForbidden {
			t.Errorf("%s: %d, want 403", tc.name, status)
		}
	}
	if head(t, dir) != start {
		t.Fatal("a refused form moved the branch")
	}

	// Hunk 1 of long accepted with a comment, hunk 2 (of the two left) rejected.
	status, loc := b.post(decide, srv.URL, url.Values{"act": {"accept:1:long.md"}, "csrf": {token}, "comment": {"the first is right"}})
	if status != http.StatusSeeOther || !strings.HasPrefix(loc, "/proposals/"+id+"?") {
		t.Fatalf("accept a hunk: %d %s", status, loc)
	}
	if got := gittest.Git(t, dir, "show", "HEAD:long.md"); !strings.Contains(got, "LINE 3\n") || strings.Contains(got, "LINE 20") {
		t.Errorf("after hunk 1, HEAD:long.md =\n%s", got)
	}
	if got := gittest.Git(t, dir, "log", "-1", "--format=%an|%cn|%B"); !strings.HasPrefix(got, "claude-code|Pat Person|") || !strings.Contains(got, "the first is right") {
		t.Errorf("the accept's commit: %s", got)
	}
	if _, said := b.get(loc); !strings.Contains(said, "Accepted the hunk @@") {
		t.Errorf("the page after accepting a hunk does not say so")
	}
	if status, _ := b.post(decide, srv.URL, url.Values{"act": {"reject:1:long.md"}, "csrf": {token}}); status != http.StatusSeeOther {
		t.Fatalf("reject a hunk: %d", status)
	}
	tip := gittest.Git(t, dir, "show", wiki.ProposalsRef+id+":long.md")
	if strings.Contains(tip, "LINE 20") || !strings.Contains(tip, "LINE 37") {
		t.Errorf("after rejecting hunk 1 of 2, the proposal's long.md =\n%s", tip)
	}

	// The person changes plan.md meanwhile: it does not merge, is shown,
	// and accepting it writes nothing.
	gittest.Commit(t, dir, "person", map[string]string{"plan.md": "# Plan\n\nShip in August.\n"})
	_, page = b.get("/proposals/" + id)
	if !strings.Contains(page, "does not merge") || strings.Contains(page, `value="accept::plan.md"`) {
		t.Errorf("the conflict is not shown, or can be accepted")
	}
	if status, loc := b.post(decide, srv.URL, url.Values{"act": {"accept::plan.md"}, "csrf": {token}}); status != http.StatusSeeOther || !strings.Contains(loc, "conflicts=1") {
		t.Errorf("accept a conflict: %d %s", status, loc)
	}
	if got := gittest.Git(t, dir, "show", "HEAD:plan.md"); got != "# Plan\n\nShip in August.\n" {
		t.Errorf("HEAD:plan.md = %q", got)
	}

	// Reject all closes it; the closed list says how, by whom.
	status, loc = b.post(decide, srv.URL, url.Values{"act": {"reject::"}, "csrf": {token}})
	if status != http.StatusSeeOther || loc != "/proposals?closed=1#"+id {
		t.Fatalf("reject all: %d %s", status, loc)
	}
	_, closed := b.get(loc)
	if !strings.Contains(closed, "partly accepted") || !strings.Contains(closed, "Pat Person") {
		t.Errorf("the closed proposals:\n%s", closed)
	}
	if got := gittest.Git(t, dir, "show", "HEAD:long.md"); !strings.Contains(got, "LINE 3\n") || strings.Contains(got, "LINE 37") {
		t.Errorf("HEAD:long.md =\n%s", got)
	}
	gittest.Fsck(t, dir)
}

// TestProposalPages_readOnly: a read-only wiki's pages show a proposal
// with no buttons and refuse a decision.
func TestProposalPages_readOnly(t *testing.T) {
	w, dir, id := proposalWiki(t)
	srv := httptest.NewServer(web.New(w, web.Options{ReadOnly: true}))
	defer srv.Close()
	b := newBrowser(t, srv)
	_, page := b.get("/proposals/" + id)
	if strings.Contains(page, `name="act"`) {
		t.Error("a read-only page has decision buttons")
	}
	start := head(t, dir)
	if status, _ := b.post("/proposals/"+id+"/decide", srv.URL, url.Values{"act": {"accept::"}, "csrf": {csrfOf(t, page)}}); status != http.StatusForbidden {
		t.Errorf("decide on a read-only wiki: %d", status)
	}
	if head(t, dir) != start {
		t.Error("the branch moved")
	}
}

// BenchmarkProposalPage opens the page of a proposal of 100 notes (budget
// 100 ms), and of one of 2,000 notes: each page merges and diffs 50
// notes, so both take about as long (with 20,000 notes too).
func BenchmarkProposalPage(b *testing.B) {
	for _, n := range []int{100, 2000} {
		b.Run(fmt.Sprintf("notes=%d", n), func(b *testing.B) {
			ctx := context.Background()
			dir := gittest.Init(b)
			files := map[string]string{}
			for i := range n {
				files[fmt.Sprintf("n/%04d.md", i)] = fmt.Sprintf("# Note %d\n\nline one\nline two\nline three\n", i)
			}
			gittest.Commit(b, dir, "start", files)
			w := openWiki(b, dir)
			var batch []wiki.Change
			for i := range n {
				batch = append(batch, wiki.Change{Write: &wiki.WriteRequest{Path: fmt.Sprintf("n/%04d", i), Content: fmt.Sprintf("# Note %d\n\nline one\nline 2\nline three\n", i), Overwrite: true}})
			}
			res, err := w.Apply(ctx, wiki.ApplyRequest{Changes: batch, Mutation: wiki.Mutation{Caller: wiki.Caller{Client: "bench/1", Propose: true}}})
			if err != nil {
				b.Fatal(err)
			}
			if err := w.CatchUp(ctx); err != nil { // the indexes built, not building meanwhile
				b.Fatal(err)
			}
			h := web.New(w, web.Options{Reviewer: wiki.Identity{Name: "Pat", Email: "pat@example.com"}})
			path := "/proposals/" + res.Proposal
			for b.Loop() {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
				if rec.Code != http.StatusOK {
					b.Fatalf("%s: %d", path, rec.Code)
				}
			}
		})
	}
}

// TestProposalPages_move: a note the proposal moved shows as one move,
// without its lines, and accepting it moves the note on the branch.
func TestProposalPages_move(t *testing.T) {
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "start", map[string]string{"drafts/idea.md": "# Idea\n\nA long thought.\n", "index.md": "# Index\n\nsee [[drafts/idea]]\n"})
	w := openWiki(t, dir)
	me := wiki.Caller{Client: "codex/1", Session: "s", Propose: true, Author: wiki.Identity{Name: "codex", Email: "codex@mcp.wikid"}}
	res, err := w.Move(ctx, wiki.MoveRequest{Path: "drafts/idea", NewPath: "ideas/idea", Mutation: wiki.Mutation{Caller: me}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(web.New(w, web.Options{Reviewer: wiki.Identity{Name: "Pat Person", Email: "pat@example.com"}}))
	defer srv.Close()
	b := newBrowser(t, srv)
	_, page := b.get("/proposals/" + res.Proposal)
	if !strings.Contains(page, "drafts/idea → ideas/idea") || strings.Contains(page, "A long thought") || !strings.Contains(page, "Accept the move") ||
		!strings.Contains(page, "the links to it in 1 note") || strings.Contains(page, `value="accept::index.md"`) {
		t.Fatalf("the move is not shown as one:\n%s", page)
	}
	status, _ := b.post("/proposals/"+res.Proposal+"/decide", srv.URL, url.Values{"act": {"accept::drafts/idea.md\r\nideas/idea.md\r\nindex.md"}, "csrf": {csrfOf(t, page)}})
	if status != http.StatusSeeOther {
		t.Fatalf("accept the move: %d", status)
	}
	if files := gittest.Git(t, dir, "ls-tree", "-r", "--name-only", "HEAD"); !strings.Contains(files, "ideas/idea.md") || strings.Contains(files, "drafts/idea.md") {
		t.Errorf("after the move, HEAD holds:\n%s", files)
	}
	if got := gittest.Git(t, dir, "show", "HEAD:index.md"); !strings.Contains(got, "[[ideas/idea]]") {
		t.Errorf("HEAD:index.md = %q", got)
	}
}
