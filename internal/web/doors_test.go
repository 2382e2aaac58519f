package web_test

import (
	"context"
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

// TestPages_Trailers undoes a commit and restores a note through the
// pages, and reads the Wiki-Tool trailer of their commits with git: the
// pages name their own actions, never an MCP tool.
func TestPages_Trailers(t *testing.T) {
	w, dir := reviewWiki(t)
	srv := httptest.NewServer(web.New(w, web.Options{Reviewer: wiki.Identity{Name: "Pat Person", Email: "pat@example.com"}}))
	defer srv.Close()
	b := newBrowser(t, srv)
	trailer := func(key string) string {
		return strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%(trailers:key="+key+",valueonly)"))
	}

	target := head(t, dir)
	_, page := b.get("/commit/" + target)
	token := csrfOf(t, page)
	if status, _ := b.post("/commit/"+target+"/revert", srv.URL, url.Values{"csrf": {token}, "confirm": {"yes"}}); status != http.StatusSeeOther {
		t.Fatalf("undo: %d", status)
	}
	if tool, client := trailer("Wiki-Tool"), trailer("Wiki-Client"); tool != "web undo" || client != "wikid-web" {
		t.Errorf("the undo's trailers: Wiki-Tool %q, Wiki-Client %q; want web undo, wikid-web", tool, client)
	}

	first := strings.TrimSpace(gittest.Git(t, dir, "rev-list", "--max-parents=0", "HEAD"))
	if status, _ := b.post("/note/plan/restore", srv.URL, url.Values{"csrf": {token}, "version": {first}, "confirm": {"yes"}}); status != http.StatusSeeOther {
		t.Fatalf("restore: %d", status)
	}
	if tool, client := trailer("Wiki-Tool"), trailer("Wiki-Client"); tool != "web restore" || client != "wikid-web" {
		t.Errorf("the restore's trailers: Wiki-Tool %q, Wiki-Client %q; want web restore, wikid-web", tool, client)
	}
	msg := gittest.Git(t, dir, "log", "-2", "--format=%B")
	for _, mcpTool := range []string{"revert_change", "restore_note"} {
		if strings.Contains(msg, mcpTool) {
			t.Errorf("a page's commit names the MCP tool %s:\n%s", mcpTool, msg)
		}
	}
	// The pages' own commits are people's work, not an assistant's to
	// review.
	if _, page := b.get("/?unreviewed=1"); strings.Contains(page, "web undo") || strings.Contains(page, "restore: plan") {
		t.Errorf("the unreviewed changes list the pages' own commits:\n%s", page)
	}
}

// TestPages_Words shows the core's hints in the pages' words: no
// reference marks, no MCP tool names.
func TestPages_Words(t *testing.T) {
	w, dir := reviewWiki(t)
	srv := httptest.NewServer(web.New(w, web.Options{Reviewer: wiki.Identity{Name: "Pat Person", Email: "pat@example.com"}}))
	defer srv.Close()
	b := newBrowser(t, srv)
	// A later edit of the same line makes undoing the first edit conflict:
	// the core's hint names the edit and restore operations.
	edit := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%H", "--grep=edit: plan"))
	if _, err := w.Edit(context.Background(), wiki.EditRequest{Path: "plan", Edits: []note.Edit{{Op: note.OpReplace, Find: "Ship the beta in July.", Content: "Ship the beta in August."}}}); err != nil {
		t.Fatal(err)
	}
	_, page := b.get("/commit/" + edit)
	token := csrfOf(t, page)
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/commit/"+edit+"/revert", strings.NewReader(url.Values{"csrf": {token}}.Encode()))
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
	conflict := sb.String()
	if res.StatusCode != http.StatusConflict {
		t.Fatalf("a conflicting undo: %d\n%s", res.StatusCode, conflict)
	}
	if strings.ContainsAny(conflict, "\x02\x03") || strings.Contains(conflict, "edit_note") || strings.Contains(conflict, "restore_note") {
		t.Errorf("the conflict shows reference marks or tool names:\n%q", conflict)
	}
	if !strings.Contains(conflict, "read them, then wikid edit), or Restore a version") {
		t.Errorf("the conflict's hint is not in the pages' words:\n%s", conflict)
	}
}
