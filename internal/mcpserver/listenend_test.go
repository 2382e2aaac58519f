package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"
)

// TestServeStdio_InputEndsListen: a client on protocol 2026-07-28 that
// closes its input while a subscriptions/listen stream is open ends its
// session: the stream, which no client is there to read, is not a call in
// flight that runs to its end. The session lasted until the client was
// killed (the TypeScript SDK 2.x waits 2 s, then kills wikid serve), or,
// through the daemon, for as long as the daemon ran.
func TestServeStdio_InputEndsListen(t *testing.T) {
	srv := newServer(t, openWiki(t, fixtureRepo(t)), "")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() {
		served <- srv.ServeStdio(ctx, inR, outW)
		outW.Close()
	}()
	acked := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			var m struct{ Method string }
			if json.Unmarshal(sc.Bytes(), &m) == nil && m.Method == "notifications/subscriptions/acknowledged" {
				close(acked)
			}
		}
	}()
	listen, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen", "params": map[string]any{
		"_meta": map[string]any{
			"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
			"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "modern", "version": "1"},
			"io.modelcontextprotocol/clientCapabilities": map[string]any{},
		},
		"notifications": map[string]any{"resourceSubscriptions": []string{"wiki://note/projects/alpha/plan"}},
	}})
	if _, err := inW.Write(append(listen, '\n')); err != nil {
		t.Fatal(err)
	}
	select {
	case <-acked:
	case <-time.After(10 * time.Second):
		t.Fatal("the stream was not acknowledged within 10 s")
	}
	inW.Close()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the session goes on 10 s after its input ended, held by its listen stream")
	}
}
