package mcpserver_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/mcpserver"
)

// TestHTTP_ModernWithoutMeta checks that on protocol 2026-07-28 a
// notifications/cancelled without the _meta that protocol asks for is
// served, as the Go SDK sends it, not refused with 400, and that a ping,
// which that protocol removed, is answered as the protocol says (-32601,
// HTTP 404) with or without _meta, as over stdio.
func TestHTTP_ModernWithoutMeta(t *testing.T) {
	url := serveHTTP(t, openWiki(t, fixtureRepo(t)), mcpserver.Options{}, mcpserver.HTTPOptions{})
	post := func(t *testing.T, method, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", method)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	tests := []struct {
		name, method, body string
		status             int
		contains           string
	}{
		{"ping", "ping", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, http.StatusNotFound, `"code":-32601`},
		{"ping with params", "ping", `{"jsonrpc":"2.0","id":2,"method":"ping","params":{}}`, http.StatusNotFound, `"code":-32601`},
		{"ping with meta", "ping", `{"jsonrpc":"2.0","id":4,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, http.StatusNotFound, `"code":-32601`},
		{"cancelled", "notifications/cancelled", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"stop"}}`, http.StatusAccepted, ""},
		// A request other than ping still needs its _meta.
		{"tools/list", "tools/list", `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, http.StatusBadRequest, "_meta"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(t, tt.method, tt.body)
			if status != tt.status || !strings.Contains(body, tt.contains) {
				t.Errorf("%d %s, want %d with %q", status, body, tt.status, tt.contains)
			}
		})
	}
}
