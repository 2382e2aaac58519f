package e2e_test

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/profiles/table"
	"github.com/wikid/wikid/internal/wiki"
)

// TestServer_HTTP runs the suite with mcp-go's client, which speaks the
// stateless protocol of 2026-07-28 where the client names itself in every
// request's _meta.
func TestServer_HTTP(t *testing.T) {
	dir := fixtureRepo(t)
	url := serveHTTP(t, openWiki(t, dir, nil), mcpserver.Options{}, mcpserver.HTTPOptions{})
	c := connectHTTP(t, url, nil, "")
	if v := c.ProtocolVersion(); v < "2026-07-28" {
		t.Errorf("protocol %s: the suite is meant to run the stateless protocol here", v)
	}
	runSuite(t, newSession(t, c), dir)
}

// TestServer_LegacyHandshake connects with the initialize handshake of
// protocol versions up to 2025-11-25, which TypeScript clients use: the
// session remembers the client, and its changes are attributed to it.
func TestServer_LegacyHandshake(t *testing.T) {
	dir := fixtureRepo(t)
	url := serveHTTP(t, openWiki(t, dir, nil), mcpserver.Options{}, mcpserver.HTTPOptions{})
	c := connectHTTP(t, url, nil, handshakeProtocol)
	if v := c.ProtocolVersion(); v >= "2026-07-28" {
		t.Errorf("protocol %s, want a handshake version", v)
	}
	s := newSession(t, c)
	before := git(t, dir, "rev-parse", "HEAD")
	out, _ := ok[mutationOut](s, "write_note", map[string]any{"path": "legacy", "content": "# Legacy\n"})
	checkCommit(t, dir, before, "write_note", out.Commit)
}

func TestServer_Author(t *testing.T) {
	dir := fixtureRepo(t)
	opts := mcpserver.Options{Author: wiki.Identity{Name: "Ada Lovelace", Email: "ada@example.com"}}
	s := newSession(t, connectHTTP(t, serveHTTP(t, openWiki(t, dir, nil), opts, mcpserver.HTTPOptions{}), nil, ""))
	ok[mutationOut](s, "write_note", map[string]any{"path": "by-ada", "content": "x\n"})
	c := lastCommit(t, dir)
	if c.Author != "Ada Lovelace <ada@example.com>" || c.Trailers["Wiki-Client"] != wantClient {
		t.Errorf("author %q, trailers %v", c.Author, c.Trailers)
	}
}

func TestServer_ReadOnly(t *testing.T) {
	dir := fixtureRepo(t)
	w := openWiki(t, dir, nil) // writable underneath: the server alone refuses
	s := newSession(t, connectHTTP(t, serveHTTP(t, w, mcpserver.Options{ReadOnly: true}, mcpserver.HTTPOptions{}), nil, ""))
	checkToolList(t, s, true)
	head := git(t, dir, "rev-parse", "HEAD")
	for _, name := range mutatingTools {
		e := s.Fail(name, changeArgs(name), "READ_ONLY")
		if msg, _ := e["message"].(string); !strings.Contains(msg, name) {
			t.Errorf("%s: message %q", name, msg)
		}
	}
	if _, txt := ok[wiki.ReadResult](s, "read_note", map[string]any{"path": "index"}); !strings.HasPrefix(txt, "# Home") {
		t.Errorf("read on a read-only server: %s", txt)
	}
	if st, _ := ok[wiki.Status](s, "wiki_status", nil); !st.ReadOnly {
		t.Error("wiki_status does not say read-only")
	}
	if git(t, dir, "rev-parse", "HEAD") != head {
		t.Error("a read-only server committed")
	}
}

func TestServer_Groups(t *testing.T) {
	dir := fixtureRepo(t)
	w := openWiki(t, dir, nil)
	tests := []struct {
		groups []string
		want   []string
	}{
		{[]string{"wiki"}, []string{"sync_wiki", "wiki_status"}},
		{[]string{"search", "links"}, []string{"find_broken_links", "find_path", "gather_context", "get_hubs", "get_links", "grep_notes", "list_notes",
			"list_tags", "random_note", "recent_changes", "resolve_notes", "search_notes"}},
		{[]string{"notes", "history"}, []string{"activity_log", "apply_changes", "blame_note", "daily_note", "delete_note", "diff_versions",
			"edit_note", "move_note", "note_history", "read_image", "read_note", "restore_note", "revert_change", "update_metadata", "write_note"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.groups, ","), func(t *testing.T) {
			opts := mcpserver.Options{Profiles: table.Profiles(), Groups: tt.groups}
			if err := opts.Validate(); err != nil {
				t.Fatal(err)
			}
			s := newSession(t, connectHTTP(t, serveHTTP(t, w, opts, mcpserver.HTTPOptions{}), nil, ""))
			var names []string
			for n := range s.Tools {
				names = append(names, n)
			}
			slices.Sort(names)
			if !slices.Equal(names, tt.want) {
				t.Errorf("tools %v, want %v", names, tt.want)
			}
		})
	}
	if err := (mcpserver.Options{Profiles: table.Profiles(), Groups: []string{"notes", "graph"}}).Validate(); err == nil || !strings.Contains(err.Error(), `"graph"`) {
		t.Errorf("an unknown group: %v", err)
	}
}

func TestHTTPHandler_Security(t *testing.T) {
	dir := fixtureRepo(t)
	const token = "s3cret-token"
	url := serveHTTP(t, openWiki(t, dir, nil), mcpserver.Options{},
		mcpserver.HTTPOptions{Token: token, AllowedOrigins: []string{"https://app.example.com"}})
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	post := func(t *testing.T, path string, header map[string]string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, strings.TrimSuffix(url, "/mcp")+path, strings.NewReader(initialize))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	bearer := "Bearer " + token
	tests := []struct {
		name   string
		path   string
		header map[string]string
		status int
	}{
		{"no token", "/mcp", nil, http.StatusUnauthorized},
		{"wrong token", "/mcp", map[string]string{"Authorization": "Bearer nope"}, http.StatusUnauthorized},
		{"token as basic auth", "/mcp", map[string]string{"Authorization": "Basic " + token}, http.StatusUnauthorized},
		{"token", "/mcp", map[string]string{"Authorization": bearer}, http.StatusOK},
		{"lowercase scheme", "/mcp", map[string]string{"Authorization": "bearer " + token}, http.StatusOK},
		{"foreign origin", "/mcp", map[string]string{"Authorization": bearer, "Origin": "https://evil.example"}, http.StatusForbidden},
		{"foreign origin without token", "/mcp", map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
		{"lookalike origin", "/mcp", map[string]string{"Authorization": bearer, "Origin": "http://localhost.evil.example"}, http.StatusForbidden},
		{"null origin", "/mcp", map[string]string{"Authorization": bearer, "Origin": "null"}, http.StatusForbidden},
		{"allowed origin", "/mcp", map[string]string{"Authorization": bearer, "Origin": "https://app.example.com"}, http.StatusOK},
		{"localhost origin", "/mcp", map[string]string{"Authorization": bearer, "Origin": "http://localhost:5173"}, http.StatusOK},
		{"loopback origin", "/mcp", map[string]string{"Authorization": bearer, "Origin": "http://127.0.0.1:3000"}, http.StatusOK},
		{"ipv6 loopback origin", "/mcp", map[string]string{"Authorization": bearer, "Origin": "http://[::1]:3000"}, http.StatusOK},
		{"other path", "/other", map[string]string{"Authorization": bearer}, http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := post(t, tt.path, tt.header)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.status)
			}
			if tt.status == http.StatusUnauthorized && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("WWW-Authenticate %q", resp.Header.Get("WWW-Authenticate"))
			}
			if o := tt.header["Origin"]; tt.status == http.StatusOK && o != "" && resp.Header.Get("Access-Control-Allow-Origin") != o {
				t.Errorf("Access-Control-Allow-Origin %q, want %q", resp.Header.Get("Access-Control-Allow-Origin"), o)
			}
		})
	}

	t.Run("preflight", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodOptions, url, nil)
		req.Header.Set("Origin", "https://app.example.com")
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "authorization, content-type")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent || !strings.Contains(resp.Header.Get("Access-Control-Allow-Headers"), "Authorization") {
			t.Errorf("preflight: %d %v", resp.StatusCode, resp.Header)
		}
	})

	t.Run("client with the token", func(t *testing.T) {
		s := newSession(t, connectHTTP(t, url, map[string]string{"Authorization": bearer}, ""))
		if len(s.Tools) != len(allTools) {
			t.Errorf("%d tools", len(s.Tools))
		}
	})
}

func TestServer_Resources(t *testing.T) {
	dir := fixtureRepo(t)
	c := connectHTTP(t, serveHTTP(t, openWiki(t, dir, nil), mcpserver.Options{}, mcpserver.HTTPOptions{}), nil, "")
	ctx := context.Background()
	tpl, err := c.ListResourceTemplates(ctx, mcp.ListResourceTemplatesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	templates := map[string]string{}
	for _, rt := range tpl.ResourceTemplates {
		templates[rt.URITemplate.Raw()] = rt.MIMEType
	}
	if want := map[string]string{"wiki://note/{+path}": "text/markdown", "wiki://history/{+path}": "text/plain",
		"wiki://commit/{rev}": "text/plain", "wiki://activity/{since}": "text/plain", "wiki://tag/{tag}": "text/plain",
		"wiki://proposal/{id}": "text/plain",
	}; !maps.Equal(templates, want) {
		t.Errorf("templates %v, want %v", templates, want)
	}
	read := func(uri string) (string, error) {
		var req mcp.ReadResourceRequest
		req.Params.URI = uri
		res, err := c.ReadResource(ctx, req)
		if err != nil {
			return "", err
		}
		if len(res.Contents) != 1 {
			return "", fmt.Errorf("%d contents", len(res.Contents))
		}
		tc, ok := res.Contents[0].(mcp.TextResourceContents)
		if !ok {
			return "", fmt.Errorf("contents %T", res.Contents[0])
		}
		return tc.Text, nil
	}
	for uri, file := range map[string]string{
		"wiki://note/projects/alpha/plan":                         "projects/alpha/plan.md",
		"wiki://note/areas/finance/taxes%202024":                  "areas/finance/taxes 2024.md",
		"wiki://note/people/%E7%94%B0%E4%B8%AD%E5%A4%AA%E9%83%8E": "people/田中太郎.md",
		"wiki://note/projects/beta/roadmap":                       "projects/beta/roadmap.mdx",
	} {
		got, err := read(uri)
		want, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
		if err != nil || got != string(want) {
			t.Errorf("%s: %v\n%q\nwant %q", uri, err, got, want)
		}
	}
	if _, err := read("wiki://note/no/such/note"); err == nil || !strings.Contains(err.Error(), "NOT_FOUND") {
		t.Errorf("a missing note: %v", err)
	}
	recent, err := read("wiki://recent")
	if err != nil || !strings.HasPrefix(recent, "Recently changed notes (20 of ") {
		t.Errorf("wiki://recent: %v\n%s", err, recent)
	}
	for uri, want := range map[string]string{
		"wiki://history/projects/alpha/plan": "History of projects/alpha/plan: 1 commit",
		"wiki://commit/HEAD":                 "Commit ",
		"wiki://activity/2000-01-01":         "Commits since 2000-01-01:",
		"wiki://tag/project":                 "Notes tagged project:",
	} {
		if got, err := read(uri); err != nil || !strings.HasPrefix(got, want) {
			t.Errorf("%s: %v\n%s", uri, err, got)
		}
	}
	if _, err := read("wiki://activity/yesterday"); err == nil || !strings.Contains(err.Error(), "INVALID_PARAMS") {
		t.Errorf("a bad day: %v", err)
	}
}

// TestServer_ConcurrentWrites sends writes from several clients at once:
// each becomes its own commit, attributed to its client, and none is lost.
func TestServer_ConcurrentWrites(t *testing.T) {
	t.Parallel()
	dir := fixtureRepo(t)
	url := serveHTTP(t, openWiki(t, dir, nil), mcpserver.Options{}, mcpserver.HTTPOptions{})
	before := git(t, dir, "rev-parse", "HEAD")
	const clients, writes = 4, 5
	var wg sync.WaitGroup
	for i := range clients {
		s := newSession(t, connectHTTP(t, url, nil, ""))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range writes {
				res := s.Call("write_note", map[string]any{"path": fmt.Sprintf("c%d/n%d", i, j), "content": "x\n"})
				if res.IsError {
					t.Errorf("write: %s", text(res))
				}
				res = s.Call("edit_note", map[string]any{"path": "index", "edits": []any{map[string]any{"op": "append", "content": fmt.Sprintf("- %d.%d", i, j)}}})
				if res.IsError {
					t.Errorf("edit: %s", text(res))
				}
			}
		}()
	}
	wg.Wait()
	if n := git(t, dir, "rev-list", "--count", before+"..HEAD"); n != fmt.Sprint(2*clients*writes) {
		t.Errorf("%s commits, want %d", n, 2*clients*writes)
	}
	index, _ := os.ReadFile(filepath.Join(dir, "index.md"))
	for i := range clients {
		for j := range writes {
			if !strings.Contains(string(index), fmt.Sprintf("- %d.%d\n", i, j)) {
				t.Errorf("the edit %d.%d was lost", i, j)
			}
		}
	}
	if authors := git(t, dir, "log", "--format=%an", before+"..HEAD"); strings.Trim(strings.ReplaceAll(authors, clientName, ""), "\n") != "" {
		t.Errorf("authors:\n%s", authors)
	}
	checkClean(t, dir)
}

// TestServer_InternalError checks that a failure without a contract code
// reaches the client as INTERNAL with a generic message, its details in the
// log only.
func TestServer_InternalError(t *testing.T) {
	dir := fixtureRepo(t)
	w := openWiki(t, dir, nil)
	var log lockedBuffer
	url := serveHTTP(t, w, mcpserver.Options{Logger: slog.New(slog.NewTextHandler(&log, nil))}, mcpserver.HTTPOptions{})
	s := newSession(t, connectHTTP(t, url, nil, ""))
	if err := w.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	e := s.Fail("read_note", map[string]any{"path": "index"}, "INTERNAL")
	if e["message"] != "read_note failed on the server" {
		t.Errorf("message %q", e["message"])
	}
	if !strings.Contains(log.String(), "tool failed") || !strings.Contains(log.String(), "tool=read_note") {
		t.Errorf("log:\n%s", log.String())
	}
}
