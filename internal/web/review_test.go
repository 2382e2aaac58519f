package web_test

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/web"
	"github.com/wikid/wikid/internal/wiki"
)

// browser is a client with cookies, as a browser is.
type browser struct {
	t   *testing.T
	srv *httptest.Server
	c   *http.Client
}

func newBrowser(t *testing.T, srv *httptest.Server) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, srv: srv, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (b *browser) get(path string) (int, string) {
	b.t.Helper()
	res, err := b.c.Get(b.srv.URL + path)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	var sb strings.Builder
	buf := make([]byte, 1<<16)
	for {
		n, err := res.Body.Read(buf)
		sb.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return res.StatusCode, sb.String()
}

// post submits a form from origin ("" for none).
func (b *browser) post(path, origin string, form url.Values) (int, string) {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, b.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	res, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	return res.StatusCode, res.Header.Get("Location")
}

var csrfField = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)

func csrfOf(t *testing.T, page string) string {
	m := csrfField.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no CSRF token in the page:\n%s", page)
	}
	return m[1]
}

func head(t *testing.T, dir string) string {
	return strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
}

// TestReview marks a commit reviewed through the page: the mark is a git
// note, shown on the commit and in the timeline, left out of the
// unreviewed view, and still there for a new handler, as after a restart.
// Forms without the CSRF token or from another origin change nothing.
func TestReview(t *testing.T) {
	w, dir := reviewWiki(t)
	reviewer := wiki.Identity{Name: "Pat Person", Email: "pat@example.com"}
	srv := httptest.NewServer(web.New(w, web.Options{Reviewer: reviewer}))
	defer srv.Close()
	b := newBrowser(t, srv)
	sha := head(t, dir)
	_, page := b.get("/commit/" + sha)
	token := csrfOf(t, page)

	notes := func() string { out, _ := gittest.TryGit(dir, "notes", "--ref=wikid-review", "list"); return out }
	for _, tc := range []struct {
		name, origin string
		form         url.Values
	}{
		{"no CSRF token", srv.URL, url.Values{"state": {"reviewed"}}},
		{"a wrong CSRF token", srv.URL, url.Values{"state": {"reviewed"}, "csrf": {strings.Repeat("0", 64)}}},
		{"a foreign origin", "https://evil.example", url.Values{"state": {"reviewed"}, "csrf": {token}}},
		{"no origin", "", url.Values{"state": {"reviewed"}, "csrf": {token}}},
	} {
		if status, _ := b.post("/commit/"+sha+"/review", tc.origin, tc.form); status != http.StatusForbidden {
			t.Errorf("%s: %d, want 403", tc.name, status)
		}
	}
	if n := notes(); n != "" {
		t.Fatalf("a refused request wrote a note: %s", n)
	}
	if status, loc := b.post("/commit/"+sha+"/review", srv.URL, url.Values{"state": {"reviewed"}, "csrf": {token}}); status != http.StatusSeeOther || loc != "/commit/"+sha {
		t.Fatalf("mark reviewed: %d %s", status, loc)
	}
	note := gittest.Git(t, dir, "notes", "--ref=wikid-review", "show", sha)
	if !strings.HasPrefix(note, "reviewed by Pat Person <pat@example.com> at ") {
		t.Errorf("the git note: %q", note)
	}
	if by := gittest.Git(t, dir, "log", "-1", "--format=%an", "refs/notes/wikid-review"); strings.TrimSpace(by) != "Pat Person" {
		t.Errorf("the notes commit is by %q", by)
	}
	if log := gittest.Git(t, dir, "log", "-1", "--notes=wikid-review", sha); !strings.Contains(log, "reviewed by Pat Person") {
		t.Errorf("git log --notes does not show it:\n%s", log)
	}
	gittest.Fsck(t, dir)

	// A new handler, as after a restart, reads the mark from git.
	srv2 := httptest.NewServer(web.New(w, web.Options{Reviewer: reviewer}))
	defer srv2.Close()
	b2 := newBrowser(t, srv2)
	if _, page := b2.get("/commit/" + sha); !strings.Contains(page, "<strong>reviewed</strong> by Pat Person") {
		t.Errorf("the commit page after a restart:\n%s", page)
	}
	_, timeline := b2.get("/")
	if !strings.Contains(timeline, ">reviewed</span>") {
		t.Errorf("the timeline does not show the mark:\n%s", timeline)
	}
	_, unreviewed := b2.get("/?unreviewed=1")
	if strings.Contains(unreviewed, "/commit/"+sha) || strings.Count(unreviewed, `<tr class="commit">`) != 1 {
		t.Errorf("unreviewed shows the reviewed commit, or not the other assistant's one:\n%s", unreviewed)
	}
	// Clearing takes the note away.
	_, page = b.get("/commit/" + sha)
	if status, _ := b.post("/commit/"+sha+"/review", srv.URL, url.Values{"state": {"clear"}, "csrf": {csrfOf(t, page)}}); status != http.StatusSeeOther {
		t.Errorf("clear: %d", status)
	}
	if n := notes(); n != "" {
		t.Errorf("after clearing: %s", n)
	}
}

// TestRevert undoes a commit through the page: a preview that commits
// nothing, then exactly one commit, by the reviewer, through revert_change;
// and a conflicting undo that is shown and commits nothing.
func TestRevert(t *testing.T) {
	w, dir := reviewWiki(t)
	reviewer := wiki.Identity{Name: "Pat Person", Email: "pat@example.com"}
	srv := httptest.NewServer(web.New(w, web.Options{Reviewer: reviewer}))
	defer srv.Close()
	b := newBrowser(t, srv)
	target := head(t, dir) // codex's new note
	_, page := b.get("/commit/" + target)
	token := csrfOf(t, page)

	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/commit/"+target+"/revert", strings.NewReader(url.Values{"csrf": {token}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", srv.URL)
	res, err := b.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	buf := make([]byte, 1<<16)
	for n, err := res.Body.Read(buf); n > 0 || err == nil; n, err = res.Body.Read(buf) {
		sb.Write(buf[:n])
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(sb.String(), `<span class="l del">-Owns the &lt;launch&gt; &amp; risks.</span>`) {
		t.Fatalf("preview: %d\n%s", res.StatusCode, sb.String())
	}
	if head(t, dir) != target {
		t.Fatal("the preview made a commit")
	}
	status, loc := b.post("/commit/"+target+"/revert", srv.URL, url.Values{"csrf": {token}, "confirm": {"yes"}})
	if status != http.StatusSeeOther || !strings.HasPrefix(loc, "/commit/") {
		t.Fatalf("undo: %d %s", status, loc)
	}
	after := head(t, dir)
	if n := strings.TrimSpace(gittest.Git(t, dir, "rev-list", "--count", target+".."+after)); n != "1" {
		t.Errorf("the undo made %s commits", n)
	}
	if loc != "/commit/"+after {
		t.Errorf("redirected to %s, not the new commit %s", loc, after)
	}
	msg := gittest.Git(t, dir, "log", "-1", "--format=%an <%ae>%n%cn <%ce>%n%B")
	if !strings.HasPrefix(msg, "Pat Person <pat@example.com>\nPat Person <pat@example.com>\n") || !strings.Contains(msg, "Wiki-Tool: web undo") {
		t.Errorf("the undo commit:\n%s", msg)
	}
	// Its tree is git revert's.
	gittest.Git(t, dir, "revert", "--no-edit", "--no-commit", target, "-X", "ours")
	if diff := gittest.Git(t, dir, "diff", "--cached", "HEAD"); diff != "" {
		t.Errorf("the undo differs from git revert:\n%s", diff)
	}
	gittest.Git(t, dir, "revert", "--abort")
	if st := gittest.Status(t, dir); st != "" {
		t.Errorf("status: %s", st)
	}

	// A later edit of the same line makes undoing the first edit conflict.
	edit := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%H", "--grep=edit: plan"))
	if _, err := w.Edit(context.Background(), wiki.EditRequest{Path: "plan", Edits: []note.Edit{{Op: note.OpReplace, Find: "Ship the beta in July.", Content: "Ship the beta in August."}}}); err != nil {
		t.Fatal(err)
	}
	before := head(t, dir)
	status, _ = b.post("/commit/"+edit+"/revert", srv.URL, url.Values{"csrf": {token}, "confirm": {"yes"}})
	if status != http.StatusConflict {
		t.Errorf("a conflicting undo: %d, want 409", status)
	}
	if head(t, dir) != before {
		t.Error("a conflicting undo made a commit")
	}
}

// TestAccess checks sign-in, read-only and DNS-rebinding refusals.
func TestAccess(t *testing.T) {
	w, dir := reviewWiki(t)
	h := web.New(w, web.Options{SignIn: true})
	srv := httptest.NewServer(h)
	defer srv.Close()
	b := newBrowser(t, srv)
	if status, _ := b.get("/"); status != http.StatusUnauthorized {
		t.Errorf("before sign-in: %d", status)
	}
	link := h.SignInLink(srv.URL)
	u, _ := url.Parse(link)
	status, _ := b.get(u.RequestURI())
	if status != http.StatusSeeOther {
		t.Fatalf("sign-in: %d", status)
	}
	cookies := b.c.Jar.Cookies(u)
	if len(cookies) != 1 {
		t.Fatalf("cookies %v", cookies)
	}
	if status, _ := b.get("/"); status != http.StatusOK {
		t.Errorf("after sign-in: %d", status)
	}
	other := newBrowser(t, srv)
	if status, _ := other.get(u.RequestURI()); status != http.StatusUnauthorized {
		t.Errorf("a used link signs in again: %d", status)
	}
	// The session cookie is HttpOnly and SameSite=Strict.
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := noFollow.Get(h.SignInLink(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if set := res.Header.Get("Set-Cookie"); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/" ||
		!strings.Contains(set, "HttpOnly") || !strings.Contains(set, "SameSite=Strict") {
		t.Errorf("sign-in answer %d, Location %q, Set-Cookie %q", res.StatusCode, res.Header.Get("Location"), set)
	}

	// Read-only: no buttons, and the forms are refused.
	ro := httptest.NewServer(web.New(w, web.Options{ReadOnly: true}))
	defer ro.Close()
	rb := newBrowser(t, ro)
	sha := head(t, dir)
	_, page := rb.get("/commit/" + sha)
	if strings.Contains(page, "<button") {
		t.Errorf("read-only page with buttons:\n%s", page)
	}
	if status, _ := rb.post("/commit/"+sha+"/review", ro.URL, url.Values{"state": {"reviewed"}}); status != http.StatusForbidden {
		t.Errorf("read-only review: %d", status)
	}

	// A loopback connection naming another host is refused.
	req, _ := http.NewRequest(http.MethodGet, ro.URL+"/", nil)
	req.Host = "evil.example:80"
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("DNS rebinding: %d", res.StatusCode)
	}
}

// TestRestoreVersion reads an old version of a note, diffs it with now,
// and brings it back through its preview, as one commit by the reviewer.
func TestRestoreVersion(t *testing.T) {
	w, dir := reviewWiki(t)
	srv := httptest.NewServer(web.New(w, web.Options{Reviewer: wiki.Identity{Name: "Pat Person", Email: "pat@example.com"}}))
	defer srv.Close()
	b := newBrowser(t, srv)
	first := strings.TrimSpace(gittest.Git(t, dir, "rev-list", "--max-parents=0", "HEAD"))
	_, page := b.get("/note/plan?version=" + first)
	if !strings.Contains(page, "Ship the beta in June.") || !strings.Contains(page, "Restore this version") {
		t.Fatalf("the old version:\n%s", page)
	}
	_, diff := b.get("/note/plan?from=" + first + "&to=HEAD")
	if !strings.Contains(diff, `<span class="l add">+Ship the beta in <mark>July</mark>.</span>`) {
		t.Errorf("the diff with now:\n%s", diff)
	}
	token := csrfOf(t, page)
	before := head(t, dir)
	if status, _ := b.post("/note/plan/restore", srv.URL, url.Values{"csrf": {token}, "version": {first}}); status != http.StatusOK {
		t.Errorf("preview: %d", status)
	}
	if head(t, dir) != before {
		t.Fatal("the preview made a commit")
	}
	status, loc := b.post("/note/plan/restore", srv.URL, url.Values{"csrf": {token}, "version": {first}, "confirm": {"yes"}})
	if status != http.StatusSeeOther || loc != "/commit/"+head(t, dir) {
		t.Fatalf("restore: %d %s", status, loc)
	}
	if n := strings.TrimSpace(gittest.Git(t, dir, "rev-list", "--count", before+"..HEAD")); n != "1" {
		t.Errorf("the restore made %s commits", n)
	}
	if got := gittest.Git(t, dir, "show", "HEAD:plan.md"); !strings.Contains(got, "June") {
		t.Errorf("not restored:\n%s", got)
	}
	if msg := gittest.Git(t, dir, "log", "-1", "--format=%an%n%cn%n%B"); !strings.HasPrefix(msg, "Pat Person\nPat Person\n") || !strings.Contains(msg, "Wiki-Tool: web restore") {
		t.Errorf("the restore commit:\n%s", msg)
	}
}

// TestReviewAll marks a session's commits reviewed with one form, or none
// of them: an unknown commit or one already marked refuses the form.
func TestReviewAll(t *testing.T) {
	w, dir := reviewWiki(t)
	srv := httptest.NewServer(web.New(w, web.Options{Reviewer: wiki.Identity{Name: "Pat Person", Email: "pat@example.com"}}))
	defer srv.Close()
	b := newBrowser(t, srv)
	_, page := b.get("/")
	token := csrfOf(t, page)
	codex, claude := head(t, dir), strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD~1"))
	// A session's form brings the reviewer back to the session, not to
	// the top of the page.
	if !strings.Contains(page, `<tbody class="session" id="s-`+codex+`">`) || !strings.Contains(page, `name="back" value="?#s-`+codex+`"`) {
		t.Errorf("the session's form does not return to it:\n%s", page)
	}
	notes := func() string { out, _ := gittest.TryGit(dir, "notes", "--ref=wikid-review", "list"); return out }
	for _, tc := range []struct {
		name   string
		form   url.Values
		status int
	}{
		{"no CSRF token", url.Values{"state": {"reviewed"}, "commit": {codex}}, http.StatusForbidden},
		{"an unknown commit", url.Values{"csrf": {token}, "state": {"reviewed"}, "commit": {codex, "0123456789abcdef"}}, http.StatusNotFound},
		{"flagged", url.Values{"csrf": {token}, "state": {"flagged"}, "commit": {codex}}, http.StatusBadRequest},
		{"no commit", url.Values{"csrf": {token}, "state": {"reviewed"}}, http.StatusBadRequest},
	} {
		if status, _ := b.post("/review", srv.URL, tc.form); status != tc.status {
			t.Errorf("%s: %d, want %d", tc.name, status, tc.status)
		}
		if n := notes(); n != "" {
			t.Fatalf("%s marked commits:\n%s", tc.name, n)
		}
	}
	status, loc := b.post("/review", srv.URL, url.Values{"csrf": {token}, "state": {"reviewed"}, "commit": {codex, claude}, "back": {"?client=codex"}})
	if status != http.StatusSeeOther || loc != "/?client=codex" {
		t.Errorf("marking two: %d to %q", status, loc)
	}
	for _, c := range []string{codex, claude} {
		if note := gittest.Git(t, dir, "notes", "--ref=wikid-review", "show", c); !strings.HasPrefix(note, "reviewed by Pat Person <pat@example.com> at ") {
			t.Errorf("%s: %q", c, note)
		}
	}
	before := notes()
	start := strings.TrimSpace(gittest.Git(t, dir, "rev-list", "--max-parents=0", "HEAD"))
	if status, _ := b.post("/review", srv.URL, url.Values{"csrf": {token}, "state": {"reviewed"}, "commit": {start, codex}}); status != http.StatusConflict {
		t.Errorf("a commit already marked: %d, want 409", status)
	}
	if after := notes(); after != before {
		t.Errorf("a refused form marked commits:\n%s", after)
	}
	if _, page := b.get("/"); !strings.Contains(page, "all marked") {
		t.Errorf("the timeline does not show the marked session:\n%s", page)
	}
}
