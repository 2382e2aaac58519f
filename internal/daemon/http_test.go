package daemon

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/mcpserver"
)

// testPages stands for the web pages: it answers every request with the
// token it was made with, so a test sees which listener's pages answer.
type testPages struct{ token string }

func (p testPages) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	io.WriteString(w, "pages "+p.token)
}

func (p testPages) SignInLink(base string) string {
	if p.token != "" {
		return base + "/signin?t=once"
	}
	return base + "/"
}

func newTestPages(h HTTP) Pages { return testPages{token: h.Token} }

// get returns the body of a GET of url, failing the test unless it is 200.
func get(tb testing.TB, url string) string {
	tb.Helper()
	res, err := http.Get(url)
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		tb.Fatalf("GET %s: %d %s", url, res.StatusCode, body)
	}
	return string(body)
}

func TestDaemon_addHTTP(t *testing.T) {
	ctx := context.Background()
	w, dir := testWiki(t)
	e := testEndpoint(t, dir)
	serve(t, Options{Endpoint: e, Wiki: w, Pages: newTestPages, Idle: time.Hour})

	// A stdio client, mid-session.
	c, err := ConnectMCP(ctx, e, MCPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReader(c)
	ask := func(line string) string {
		t.Helper()
		if _, err := io.WriteString(c, line+"\n"); err != nil {
			t.Fatal(err)
		}
		out, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if out := ask(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"stdio","version":"1"}}}`); !strings.Contains(out, `"serverInfo"`) {
		t.Fatalf("initialize: %s", out)
	}
	if st, err := GetStatus(ctx, e); err != nil || st.HTTP != "" || st.Web != "" {
		t.Fatalf("status before: %+v, %v; want no HTTP", st, err)
	}

	st, err := AddHTTP(ctx, e, HTTP{Addr: "127.0.0.1:0", HTTPOptions: mcpserver.HTTPOptions{Token: "tok"}})
	if err != nil {
		t.Fatal(err)
	}
	base, ok := strings.CutSuffix(st.HTTP, mcpserver.HTTPPath)
	if !ok || !strings.HasPrefix(base, "http://127.0.0.1:") || st.Web != base+"/signin?t=once" {
		t.Fatalf("after AddHTTP: http %q, web %q", st.HTTP, st.Web)
	}
	if st.Clients.MCP != 1 || st.Idle != "1h0m0s" {
		t.Errorf("after AddHTTP: %d MCP clients, idle %q; want 1, 1h0m0s", st.Clients.MCP, st.Idle)
	}
	if body := get(t, base+"/"); body != "pages tok" {
		t.Errorf("the pages answered %q", body)
	}
	// MCP at /mcp, behind the token.
	res, err := http.Post(st.HTTP, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("/mcp without the token: %d, want 401", res.StatusCode)
	}
	// The stdio session goes on.
	if out := ask(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wiki_status","arguments":{}}}`); !strings.Contains(out, `"id":2`) || strings.Contains(out, `"isError":true`) {
		t.Errorf("tools/call after AddHTTP: %.300s", out)
	}

	// A second request keeps the listener there is, whatever it asks.
	again, err := AddHTTP(ctx, e, HTTP{Addr: "127.0.0.1:0"})
	if err != nil || again.HTTP != st.HTTP {
		t.Errorf("a second AddHTTP: %q, %v; want %q", again.HTTP, err, st.HTTP)
	}
	if got, err := GetStatus(ctx, e); err != nil || got.Web != st.Web {
		t.Errorf("status: web %q, %v; want %q", got.Web, err, st.Web)
	}
}

func TestDaemon_addHTTPRefused(t *testing.T) {
	ctx := context.Background()
	w, dir := testWiki(t)
	e := testEndpoint(t, dir)
	serve(t, Options{Endpoint: e, Wiki: w, Pages: newTestPages})
	if _, err := AddHTTP(ctx, e, HTTP{Addr: "no-port"}); err == nil || !strings.Contains(err.Error(), "serve HTTP at no-port") {
		t.Errorf("AddHTTP at a bad address: %v", err)
	}
	if st, err := GetStatus(ctx, e); err != nil || st.HTTP != "" {
		t.Errorf("status after a refused AddHTTP: %+v, %v", st, err)
	}
	if _, err := AddHTTP(ctx, Endpoint{Socket: e.Socket + ".none"}, HTTP{Addr: "127.0.0.1:0"}); !errors.Is(err, ErrNotRunning) {
		t.Errorf("AddHTTP without a daemon: %v, want ErrNotRunning", err)
	}
}

// TestDaemon_idleCountsHTTPRequests: a daemon with HTTP and an idle time
// stays up while its pages are asked for, and exits Idle after the last
// request when no client is connected.
func TestDaemon_idleCountsHTTPRequests(t *testing.T) {
	w, dir := testWiki(t)
	e := testEndpoint(t, dir)
	// An idle time well above a request's time on a busy machine, with a
	// page every quarter of it.
	const idle = 2 * time.Second
	_, done := serve(t, Options{Endpoint: e, Wiki: w, Pages: newTestPages, Idle: idle, HTTP: &HTTP{Addr: "127.0.0.1:0"}})
	st, err := GetStatus(context.Background(), e)
	if err != nil || st.Idle != idle.String() {
		t.Fatalf("status: idle %q, %v; want %v", st.Idle, err, idle)
	}
	base := strings.TrimSuffix(st.HTTP, mcpserver.HTTPPath)
	// A page every idle/4, for three idle periods.
	var last time.Time
	for end := time.Now().Add(3 * idle); time.Now().Before(end); {
		// The daemon's idle time starts when it has answered, which is
		// after the request was sent.
		last = time.Now()
		get(t, base+"/")
		select {
		case <-done:
			t.Fatal("the daemon exited while its pages were asked for")
		case <-time.After(idle / 4):
		}
	}
	select {
	case <-done:
		if since := time.Since(last); since < idle {
			t.Errorf("the daemon exited %v after the last request, before its idle time %v", since, idle)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the daemon did not exit after its last request")
	}
}
