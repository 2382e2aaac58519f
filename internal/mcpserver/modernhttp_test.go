package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/mcpserver"
)

// modernMeta is the _meta of a request of protocol 2026-07-28.
var modernMeta = map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28",
	"io.modelcontextprotocol/clientInfo": map[string]any{"name": "modern-http", "version": "1"}, "io.modelcontextprotocol/clientCapabilities": map[string]any{}}

// postModern posts a message of protocol 2026-07-28 and returns the
// response, its body unread.
func postModern(ctx context.Context, t *testing.T, url string, msg map[string]any, name string) *http.Response {
	t.Helper()
	if p, ok := msg["params"].(map[string]any); ok {
		p["_meta"] = modernMeta
	}
	body, _ := json.Marshal(msg)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", msg["method"].(string))
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// TestHTTP_SubscribeModern checks that over HTTP on protocol 2026-07-28,
// with no session of an earlier protocol open, a subscriptions/listen
// stream is told of a person's git commit that changes its note, and of
// the note made, and that closing the stream ends it.
func TestHTTP_SubscribeModern(t *testing.T) {
	dir := fixtureRepo(t)
	url := serveHTTP(t, openWiki(t, dir), mcpserver.Options{}, mcpserver.HTTPOptions{})
	const planURI = "wiki://note/projects/alpha/plan"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := postModern(ctx, t, url, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen", "params": map[string]any{
		"notifications": map[string]any{"resourceSubscriptions": []string{planURI}, "resourcesListChanged": true}}}, "")
	defer resp.Body.Close()
	events := make(chan map[string]any, 100)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			var m map[string]any
			if ok && json.Unmarshal([]byte(data), &m) == nil {
				events <- m
			}
		}
		close(events)
	}()
	wait := func(method, uri string) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case m, ok := <-events:
				if !ok {
					t.Fatalf("the stream ended before %s", method)
				}
				p, _ := m["params"].(map[string]any)
				if m["method"] == method && (uri == "" || p["uri"] == uri) {
					return
				}
			case <-deadline:
				t.Fatalf("no %s %s within 10 s", method, uri)
			}
		}
	}
	wait("notifications/subscriptions/acknowledged", "")
	start := time.Now()
	gittest.Commit(t, dir, "by hand", map[string]string{"projects/alpha/plan.md": "# Plan\n\nby hand\n", "made-by-hand.md": "# New\n"})
	wait("notifications/resources/updated", planURI)
	t.Logf("told of a git commit %v after it", time.Since(start))
	wait("notifications/resources/list_changed", "")
	cancel()
	for range events {
	}
}

// TestHTTP_CancelledModern checks that on protocol 2026-07-28 a call
// cancelled by a notifications/cancelled POSTed while the call's POST
// stays open is not answered.
func TestHTTP_CancelledModern(t *testing.T) {
	started := make(chan struct{}, 1)
	profs := tableWith("test-block", blockingProfile(started))
	url := serveHTTP(t, openWiki(t, fixtureRepo(t)), mcpserver.Options{Profiles: profs, Profile: "test-block"}, mcpserver.HTTPOptions{})
	answer := make(chan *http.Response, 1)
	go func() {
		answer <- postModern(context.Background(), t, url, map[string]any{"jsonrpc": "2.0", "id": "call", "method": "tools/call",
			"params": map[string]any{"name": "block", "arguments": map[string]any{}}}, "block")
	}()
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("the call never started")
	}
	postModern(context.Background(), t, url, map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled",
		"params": map[string]any{"requestId": "call"}}, "").Body.Close()
	resp := <-answer
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if strings.Contains(string(body), `"id":"call"`) {
		t.Errorf("%d %s: a cancelled call is not answered", resp.StatusCode, body)
	}
}
