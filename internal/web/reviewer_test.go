package web_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/web"
)

// hermeticGetenv is gittest.Env without the author it names, as for a
// person whose git knows nobody but what the repository's config says.
func hermeticGetenv(k string) string {
	if strings.HasPrefix(k, "GIT_AUTHOR_") || k == "EMAIL" {
		return ""
	}
	for _, kv := range gittest.Env() {
		if name, v, ok := strings.Cut(kv, "="); ok && name == k {
			return v
		}
	}
	return ""
}

// postPage submits a form and returns the status and the page.
func (b *browser) postPage(path string, form url.Values) (int, string) {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, b.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", b.srv.URL)
	res, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// TestReviewer checks who the pages' marks and undos are by: the
// repository's git user; nobody, which refuses them and changes nothing;
// and that the person's undo is not an assistant's work to review.
func TestReviewer(t *testing.T) {
	t.Run("the repository's git user", func(t *testing.T) {
		w, dir := reviewWiki(t)
		gittest.Git(t, dir, "config", "user.name", "Rae Repo")
		gittest.Git(t, dir, "config", "user.email", "rae@example.com")
		srv := httptest.NewServer(web.New(w, web.Options{Getenv: hermeticGetenv}))
		defer srv.Close()
		b := newBrowser(t, srv)
		target := head(t, dir) // codex's new note
		_, page := b.get("/commit/" + target)
		if !strings.Contains(page, "recorded as Rae Repo &lt;rae@example.com&gt;") {
			t.Errorf("the commit page does not name the reviewer:\n%s", page)
		}
		token := csrfOf(t, page)
		if status, _ := b.post("/commit/"+target+"/review", srv.URL, url.Values{"csrf": {token}, "state": {"reviewed"}}); status != http.StatusSeeOther {
			t.Fatalf("mark: %d", status)
		}
		if by := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%an <%ae>", "refs/notes/wikid-review")); by != "Rae Repo <rae@example.com>" {
			t.Errorf("the mark's commit is by %q", by)
		}
		if note := gittest.Git(t, dir, "notes", "--ref=wikid-review", "show", target); !strings.HasPrefix(note, "reviewed by Rae Repo <rae@example.com> at ") {
			t.Errorf("the review note: %q", note)
		}
		if status, page := b.postPage("/commit/"+target+"/revert", url.Values{"csrf": {token}}); status != http.StatusOK || !strings.Contains(page, "recorded as Rae Repo") {
			t.Errorf("preview: %d\n%s", status, page)
		}
		if status, _ := b.post("/commit/"+target+"/revert", srv.URL, url.Values{"csrf": {token}, "confirm": {"yes"}}); status != http.StatusSeeOther {
			t.Fatalf("undo: %d", status)
		}
		undo := head(t, dir)
		if by := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%an <%ae>", undo)); by != "Rae Repo <rae@example.com>" {
			t.Errorf("the undo is by %q", by)
		}

		edit := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%H", "--grep=edit: plan"))
		start := strings.TrimSpace(gittest.Git(t, dir, "rev-list", "--max-parents=0", "HEAD"))
		_, page = b.get("/?unreviewed=1")
		if !strings.Contains(page, "/commit/"+edit) {
			t.Errorf("claude's unmarked edit is not unreviewed:\n%s", page)
		}
		for what, id := range map[string]string{"the person's undo": undo, "the marked commit": target, "the person's git commit": start} {
			if strings.Contains(page, "/commit/"+id) {
				t.Errorf("%s is listed as unreviewed", what)
			}
		}
	})

	t.Run("nobody", func(t *testing.T) {
		w, dir := reviewWiki(t)
		srv := httptest.NewServer(web.New(w, web.Options{Getenv: hermeticGetenv}))
		defer srv.Close()
		b := newBrowser(t, srv)
		target := head(t, dir)
		status, page := b.get("/commit/" + target)
		if status != http.StatusOK || !strings.Contains(page, "No reviewer is set") {
			t.Errorf("the commit page: %d\n%s", status, page)
		}
		token := csrfOf(t, page)
		first := strings.TrimSpace(gittest.Git(t, dir, "rev-list", "--max-parents=0", "HEAD"))
		for _, tc := range []struct {
			name, path string
			form       url.Values
		}{
			{"mark", "/commit/" + target + "/review", url.Values{"csrf": {token}, "state": {"reviewed"}}},
			{"undo", "/commit/" + target + "/revert", url.Values{"csrf": {token}, "confirm": {"yes"}}},
			{"restore", "/note/plan/restore", url.Values{"csrf": {token}, "version": {first}, "confirm": {"yes"}}},
		} {
			status, page := b.postPage(tc.path, tc.form)
			if status != http.StatusConflict || !strings.Contains(page, "git config user.name") || !strings.Contains(page, "review:") {
				t.Errorf("%s: %d\n%s", tc.name, status, page)
			}
		}
		if got := head(t, dir); got != target {
			t.Errorf("HEAD moved to %s", got)
		}
		if out, err := gittest.TryGit(dir, "rev-parse", "--verify", "--quiet", "refs/notes/wikid-review"); err == nil {
			t.Errorf("a review note was written: %s", out)
		}
		if status, page := b.postPage("/commit/"+target+"/revert", url.Values{"csrf": {token}}); status != http.StatusOK ||
			!strings.Contains(page, "No reviewer is set") || strings.Contains(page, "Undo it") {
			t.Errorf("the preview without a reviewer: %d\n%s", status, page)
		}
		gittest.Fsck(t, dir)
	})
}
