package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/tool"
)

// blockingProfile serves one tool, block, that runs until its call is
// cancelled, and says on started when it has begun.
func blockingProfile(started chan<- struct{}) tool.Profile {
	in := tool.Object("")
	return tool.Profile{Tools: func() []*tool.Tool {
		return []*tool.Tool{{Name: "block", Group: tool.GroupNotes, Description: "Blocks.", Input: in,
			Run: func(ctx context.Context, _ *tool.Env, _ []byte) (any, string, error) {
				started <- struct{}{}
				<-ctx.Done()
				return nil, "", ctx.Err()
			}}}
	}}
}

// TestServeStdio_Cancelled checks that a call the client cancels is not
// answered, as the specification asks, while the session goes on.
func TestServeStdio_Cancelled(t *testing.T) {
	started := make(chan struct{}, 1)
	profs := tableWith("test-block", blockingProfile(started))
	w := openWiki(t, fixtureRepo(t))
	srv := mcpserver.New(w, mcpserver.Options{Profiles: profs, Profile: "test-block"})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(context.Background(), inR, outW); outW.Close() }()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	send := func(msg string) {
		t.Helper()
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"block","arguments":{}}}`)
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("the call never started")
	}
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"call","reason":"the user stopped it"}}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	inW.Close()
	var ids []string
	for l := range lines {
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal([]byte(l), &m) == nil && m.ID != nil {
			ids = append(ids, string(m.ID))
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// Requests are served concurrently: the answers may come in any order.
	slices.Sort(ids)
	if got := strings.Join(ids, " "); got != `1 2` {
		t.Errorf("answered ids %s, want 1 2: a cancelled call is not answered", got)
	}
}

// TestServeStdio_CancelledAtOnce checks that a cancel that follows its
// request at once, as a bridge that was still connecting sends both,
// stops the call: it is not lost before the request is under way.
func TestServeStdio_CancelledAtOnce(t *testing.T) {
	started := make(chan struct{}, 1)
	profs := tableWith("test-block", blockingProfile(started))
	w := openWiki(t, fixtureRepo(t))
	srv := mcpserver.New(w, mcpserver.Options{Profiles: profs, Profile: "test-block"})
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"block","arguments":{}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"call"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"ping"}`,
	}, "\n") + "\n"
	var out strings.Builder
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(context.Background(), strings.NewReader(in), &out) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the cancelled call still runs")
	}
	if strings.Contains(out.String(), `"id":"call"`) || !strings.Contains(out.String(), `"id":2,`) {
		t.Errorf("answers:\n%s\nwant the ping's and not the cancelled call's", out.String())
	}
}

// TestHTTP_Cancelled checks that over HTTP a call its client cancels is
// not answered: its request gets 202 Accepted without a body, which
// clients take as no answer.
func TestHTTP_Cancelled(t *testing.T) {
	started := make(chan struct{}, 1)
	profs := tableWith("test-block", blockingProfile(started))
	url := serveHTTP(t, openWiki(t, fixtureRepo(t)), mcpserver.Options{Profiles: profs, Profile: "test-block"}, mcpserver.HTTPOptions{})
	post := func(t *testing.T, session, body string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	init := post(t, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	init.Body.Close()
	session := init.Header.Get("Mcp-Session-Id")
	if session == "" {
		t.Fatal("no session")
	}
	post(t, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()
	answer := make(chan *http.Response, 1)
	go func() {
		answer <- post(t, session, `{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"block","arguments":{}}}`)
	}()
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("the call never started")
	}
	post(t, session, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"call"}}`).Body.Close()
	resp := <-answer
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if strings.Contains(string(body), `"id":"call"`) {
		t.Errorf("%d %s: a cancelled call is not answered", resp.StatusCode, body)
	}
	// The session goes on.
	ping := post(t, session, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	defer ping.Body.Close()
	if b, _ := io.ReadAll(ping.Body); !strings.Contains(string(b), `"result"`) {
		t.Errorf("ping after the cancel: %d %s", ping.StatusCode, b)
	}
}
