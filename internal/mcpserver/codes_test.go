package mcpserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/mcpserver"
)

// TestServer_ErrorCodes checks that prompts, resources, completions and
// subscriptions fail with the protocol's codes, not -32603, in both eras
// and over both transports: a missing or bad prompt argument and an
// unknown prompt or template to complete are -32602; a missing resource is
// -32002 before 2026-07-28 and -32602 since.
func TestServer_ErrorCodes(t *testing.T) {
	w := openWiki(t, fixtureRepo(t))
	srv := newServer(t, w, "")
	url := serveHTTP(t, w, mcpserver.Options{}, mcpserver.HTTPOptions{})
	notFound := map[string]float64{"legacy": -32002, "modern": -32602}
	tests := []struct {
		name   string
		method string
		params map[string]any
		code   map[string]float64
	}{
		{"missing prompt argument", "prompts/get", map[string]any{"name": "summarize_history", "arguments": map[string]any{}}, nil},
		{"bad prompt argument", "prompts/get", map[string]any{"name": "review_changes", "arguments": map[string]any{"since": "yesterday-ish"}}, nil},
		{"prompt of a missing note", "prompts/get", map[string]any{"name": "summarize_history", "arguments": map[string]any{"path": "no/such/note"}}, nil},
		{"missing note", "resources/read", map[string]any{"uri": "wiki://note/no/such/note"}, notFound},
		{"missing commit", "resources/read", map[string]any{"uri": "wiki://commit/0123456789abcdef"}, notFound},
		{"completion of an unknown prompt", "completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "no_such_prompt"},
			"argument": map[string]any{"name": "path", "value": "pro"}}, nil},
		{"completion of an unknown template", "completion/complete", map[string]any{"ref": map[string]any{"type": "ref/resource", "uri": "wiki://nothing/{x}"},
			"argument": map[string]any{"name": "x", "value": "pro"}}, nil},
	}
	for _, era := range []string{"legacy", "modern"} {
		for _, transport := range []string{"stdio", "http"} {
			var call func(t *testing.T, method string, params map[string]any) map[string]any
			switch {
			case transport == "stdio" && era == "legacy":
				s := openRaw(t, srv)
				call = func(t *testing.T, method string, params map[string]any) map[string]any {
					_, e := s.as(t).call(method, params)
					return e
				}
			case transport == "stdio":
				s := openModern(t, srv)
				call = func(t *testing.T, method string, params map[string]any) map[string]any {
					_, e := s.as(t).call(method, params)
					return e
				}
			case era == "legacy":
				session := initializeHTTP(t, url, "")
				call = func(t *testing.T, method string, params map[string]any) map[string]any {
					return postError(t, url, session, "2025-06-18", method, params)
				}
			default:
				call = func(t *testing.T, method string, params map[string]any) map[string]any {
					params["_meta"] = map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28",
						"io.modelcontextprotocol/clientInfo": map[string]any{"name": "codes", "version": "1"}, "io.modelcontextprotocol/clientCapabilities": map[string]any{}}
					return postError(t, url, "", "2026-07-28", method, params)
				}
			}
			for _, tt := range tests {
				t.Run(era+"/"+transport+"/"+tt.name, func(t *testing.T) {
					want := -32602.0
					if tt.code != nil {
						want = tt.code[era]
					}
					e := call(t, tt.method, tt.params)
					if e == nil || e["code"] != want {
						t.Errorf("%s: error %v, want code %v", tt.method, e, want)
					}
				})
			}
		}
	}
}

// postError posts one request over HTTP, in session or without one (on
// protocol 2026-07-28), and returns its error object, nil for a result.
func postError(t *testing.T, url, session, version, method string, params map[string]any) map[string]any {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 9, "method": method, "params": params})
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", version)
	req.Header.Set("Mcp-Method", method)
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	if name, ok := params["name"].(string); ok && method == "prompts/get" {
		req.Header.Set("Mcp-Name", name)
	}
	if uri, ok := params["uri"].(string); ok {
		req.Header.Set("Mcp-Name", uri)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	text := string(raw)
	if i := strings.Index(text, "data: "); i >= 0 {
		text = text[i+len("data: "):]
	}
	var answer struct {
		Error map[string]any `json:"error"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(text)), &answer); err != nil {
		t.Fatalf("%d %s: %v", resp.StatusCode, raw, err)
	}
	return answer.Error
}
