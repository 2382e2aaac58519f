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

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/history"
	"github.com/wikid/wikid/internal/index"
	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/semantic"
	"github.com/wikid/wikid/internal/wiki"
)

// fixtureRepo returns a checkout holding a copy of fixtures/basic in one
// commit.
func fixtureRepo(tb testing.TB) string {
	tb.Helper()
	return gittest.CopyRepo(tb, filepath.Join("..", "..", "fixtures", "basic"))
}

// openWiki opens a wiki over dir, configured as wikid serve would from the
// fixture's .wikid.yaml (daily notes in journal/), with its index caught up.
func openWiki(tb testing.TB, dir string, edit func(*wiki.Options)) *wiki.Wiki {
	tb.Helper()
	return openWikiEmbedding(tb, dir, edit, nil)
}

// openWikiEmbedding is openWiki with semantic search embedding with emb;
// without, for a nil emb.
func openWikiEmbedding(tb testing.TB, dir string, edit func(*wiki.Options), emb semantic.Embedder) *wiki.Wiki {
	tb.Helper()
	ctx := context.Background()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	store, err := gitstore.Open(ctx, dir, gitstore.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	opts := wiki.Options{
		Committer: wiki.Identity{Name: "wikid", Email: "wikid@example.com"},
		Daily:     wiki.DailyOptions{Folder: "journal", Template: "templates/daily"},
		Logger:    logger,
	}
	if edit != nil {
		edit(&opts)
	}
	idx, err := index.Open(ctx, filepath.Join(store.Dir(), "index"), index.Options{Logger: logger})
	if err != nil {
		tb.Fatal(err)
	}
	hist, err := history.Open(ctx, store, history.Options{Logger: logger})
	if err != nil {
		tb.Fatal(err)
	}
	deps := wiki.Deps{Store: store, Index: idx, History: hist, Graph: graph.New()}
	if emb != nil {
		sem, err := semantic.Open(ctx, filepath.Join(store.Dir(), "semantic"), emb, semantic.Options{Logger: logger})
		if err != nil {
			tb.Fatal(err)
		}
		deps.Semantic = sem
	}
	w, err := wiki.Open(ctx, deps, opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { w.Close(ctx) })
	if err := w.Reindex(ctx, false, nil); err != nil {
		tb.Fatal(err)
	}
	return w
}

// serveHTTP serves w over HTTP on a test server and returns the endpoint.
func serveHTTP(tb testing.TB, w *wiki.Wiki, opts mcpserver.Options, hopts mcpserver.HTTPOptions) string {
	tb.Helper()
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	h := mcpserver.New(w, opts).HTTPHandler(hopts)
	ts := httptest.NewServer(h)
	tb.Cleanup(func() {
		h.Close(context.Background())
		ts.Close()
	})
	return ts.URL + mcpserver.HTTPPath
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
