package mcpserver_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/profiles/braindrive"
	"github.com/wikid/wikid/internal/profiles/cairn"
	"github.com/wikid/wikid/internal/profiles/obsidian"
	"github.com/wikid/wikid/internal/profiles/profiletest"
	"github.com/wikid/wikid/internal/profiles/roux"
	"github.com/wikid/wikid/internal/profiles/wikiai"
	"github.com/wikid/wikid/internal/profiles/wikid"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// fixtureRepo returns a checkout holding a copy of fixtures/basic in one
// commit.
func fixtureRepo(tb testing.TB) string {
	tb.Helper()
	return gittest.CopyRepo(tb, filepath.Join("..", "..", "fixtures", "basic"))
}

// serveHTTP serves w over HTTP on a test server and returns the endpoint.
func serveHTTP(tb testing.TB, w *wiki.Wiki, opts mcpserver.Options, hopts mcpserver.HTTPOptions) string {
	tb.Helper()
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Profiles == nil {
		opts.Profiles = table()
	}
	h := mcpserver.New(w, opts).HTTPHandler(hopts)
	ts := httptest.NewServer(h)
	tb.Cleanup(func() {
		h.Close(context.Background())
		ts.Close()
	})
	return ts.URL + mcpserver.HTTPPath
}

// table is the program's table of profiles.
func table() mcpserver.Profiles {
	return mcpserver.Profiles{
		mcpserver.ProfileWikid: wikid.Profile(),
		"cairn":                cairn.Profile(),
		"braindrive":           braindrive.Profile(),
		"wiki-ai":              wikiai.Profile(),
		"obsidian":             obsidian.Profile(),
		"roux":                 roux.Profile(),
	}
}

// tableWith is the program's table of profiles with p under name.
func tableWith(name string, p tool.Profile) mcpserver.Profiles {
	t := table()
	t[name] = p
	return t
}

// initializeHTTP opens a session at url and returns its id.
func initializeHTTP(tb testing.TB, url, token string) string {
	tb.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || id == "" {
		tb.Fatalf("initialize: %s, session %q", resp.Status, id)
	}
	return id
}

// postHTTPBody posts body in session, chunked (without a Content-Length)
// or not, and returns the status and the answer.
func postHTTPBody(url, token, session string, body []byte, chunked bool) (int, string, error) {
	var in io.Reader = bytes.NewReader(body)
	if chunked {
		in = io.MultiReader(in) // of unknown length
	}
	req, _ := http.NewRequest(http.MethodPost, url, in)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(answer), err
}

// openWiki opens a wiki over dir as wikid serve would, its index caught up.
func openWiki(tb testing.TB, dir string) *wiki.Wiki {
	tb.Helper()
	return profiletest.Open(tb, dir)
}
