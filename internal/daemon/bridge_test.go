package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/mcpserver"
)

// TestBridge_Run relays a client's requests to a daemon, among them lines
// over the size limit: one with its id after its params (as the
// TypeScript SDK writes it) and one with its id first are answered with
// their ids and the session goes on; one that shows no id is answered,
// and ends the session.
func TestBridge_Run(t *testing.T) {
	w, dir := testWiki(t)
	e := testEndpoint(t, dir)
	serve(t, Options{Endpoint: e, Wiki: w})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	br := &Bridge{Connect: func(ctx context.Context) (*Conn, error) { return ConnectMCP(ctx, e, MCPOptions{}) }}
	ran := make(chan error, 1)
	go func() {
		ran <- br.Run(context.Background(), inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close() })
	out := bufio.NewReader(outR)
	ask := func(line string) map[string]any {
		t.Helper()
		go io.WriteString(inW, line+"\n") // a long line is read while it is written
		answer, err := out.ReadBytes('\n')
		if err != nil {
			t.Fatalf("no answer: %v", err)
		}
		var m map[string]any
		if err := json.Unmarshal(answer, &m); err != nil {
			t.Fatalf("answer %q: %v", answer, err)
		}
		return m
	}
	if m := ask(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	content := strings.Repeat("x", mcpserver.MaxRequestBytes)
	tooLarge := func(m map[string]any, id any) {
		t.Helper()
		e, _ := m["error"].(map[string]any)
		if m["id"] != id || e == nil || e["code"] != float64(-32600) || !strings.Contains(e["message"].(string), "too large") {
			t.Errorf("answer %v, want the error -32600 with id %v", m, id)
		}
	}
	tooLarge(ask(`{"method":"tools/call","params":{"name":"write_note","arguments":{"path":"a","content":"`+content+`"}},"jsonrpc":"2.0","id":7}`), float64(7))
	if m := ask(`{"jsonrpc":"2.0","id":8,"method":"ping"}`); m["id"] != float64(8) || m["result"] == nil {
		t.Errorf("ping after an oversized request: %v", m)
	}
	tooLarge(ask(`{"jsonrpc":"2.0","id":"nine","method":"tools/call","params":{"name":"write_note","arguments":{"path":"a","content":"`+content+`"}}}`), "nine")
	tooLarge(ask(`{"method":"notifications/message","params":{"data":"`+content+`"},"jsonrpc":"2.0"}`), nil)
	select {
	case err := <-ran:
		if err == nil || !strings.Contains(err.Error(), "line 5") || !strings.Contains(err.Error(), "no id") {
			t.Errorf("Run returned %v, want the line without an id", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the session goes on after a line over the limit without an id")
	}
}
