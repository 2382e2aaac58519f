package mcpserver_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/wikid/wikid/internal/mcpserver"
)

// TestHTTPHandler_BodyBudget sends a wiki's HTTP endpoint far more bytes
// of large calls at once than its budget, with and without a
// Content-Length, among small calls: every call is answered, and the
// bodies held at once never pass BodyBudget.
func TestHTTPHandler_BodyBudget(t *testing.T) {
	w := openWiki(t, fixtureRepo(t))
	h := mcpserver.New(w, mcpserver.Options{Profiles: table(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}).HTTPHandler(mcpserver.HTTPOptions{})
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		h.Close(context.Background())
		ts.Close()
	})
	url := ts.URL + mcpserver.HTTPPath
	session := initializeHTTP(t, url, "")
	large, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{
		"name": "write_note", "arguments": map[string]any{"path": "big", "content": strings.Repeat("x", 10<<20)}}})
	small := []byte(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_note","arguments":{"path":"index"}}}`)
	const larges, smalls = 16, 16 // 160 MiB of large bodies
	var wg sync.WaitGroup
	for i := range larges + smalls {
		body, chunked := large, i%4 == 3
		if i >= larges {
			body = small
		}
		wg.Go(func() {
			code, answer, err := postHTTPBody(url, "", session, body, chunked)
			if err != nil || code != http.StatusOK || !strings.Contains(answer, `"result"`) {
				t.Errorf("call %d (%d bytes, chunked %v): %d %v %.200s", i, len(body), chunked, code, err, answer)
			}
		})
	}
	wg.Wait()
	held, peak := h.BodyBytes()
	if peak > mcpserver.BodyBudget || peak < int64(len(large)) {
		t.Errorf("held at most %d MiB of bodies at once; want at least one large body and at most the budget, %d MiB", peak>>20, mcpserver.BodyBudget>>20)
	}
	if held != 0 {
		t.Errorf("holds %d bytes of bodies after every call was answered", held)
	}
	t.Logf("%d MiB of bodies sent at once; at most %d MiB held", (larges*len(large)+smalls*len(small))>>20, peak>>20)
}
