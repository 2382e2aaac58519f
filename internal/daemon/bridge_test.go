package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"sync/atomic"
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

// TestBridge_DaemonGoneTwice: a daemon goes away during a read-only call,
// and the next one goes away too before it answers the replayed
// initialize. The call waiting to be sent again reaches the third daemon,
// and its answer the client.
func TestBridge_DaemonGoneTwice(t *testing.T) {
	type fake func(t *testing.T, r *bufio.Reader, w io.Writer)
	readLine := func(t *testing.T, r *bufio.Reader, method string) map[string]any {
		t.Helper()
		line, err := r.ReadBytes('\n')
		var m map[string]any
		if err != nil || json.Unmarshal(line, &m) != nil || m["method"] != method {
			t.Errorf("the daemon read %q (%v), want %s", line, err, method)
		}
		return m
	}
	answer := func(w io.Writer, id any, result string) {
		raw, _ := json.Marshal(id)
		io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(raw)+`,"result":`+result+"}\n")
	}
	handshake := func(t *testing.T, r *bufio.Reader, w io.Writer) {
		answer(w, readLine(t, r, "initialize")["id"], `{}`)
		readLine(t, r, "notifications/initialized")
	}
	daemons := []fake{
		func(t *testing.T, r *bufio.Reader, w io.Writer) { // answers, then dies during the call
			handshake(t, r, w)
			answer(w, readLine(t, r, "tools/list")["id"], `{"tools":[{"name":"read_note","annotations":{"readOnlyHint":true}}]}`)
			readLine(t, r, "tools/call")
		},
		func(t *testing.T, r *bufio.Reader, w io.Writer) { // dies before the handshake's answer
			readLine(t, r, "initialize")
			readLine(t, r, "notifications/initialized")
		},
		func(t *testing.T, r *bufio.Reader, w io.Writer) {
			handshake(t, r, w)
			answer(w, readLine(t, r, "tools/call")["id"], `{"content":[{"type":"text","text":"read"}]}`)
			io.Copy(io.Discard, r)
		},
	}
	runs := make([]func(*bufio.Reader, io.Writer), len(daemons))
	for i, d := range daemons {
		runs[i] = func(r *bufio.Reader, w io.Writer) { d(t, r, w) }
	}
	connect, connects := scriptedDaemons(t, runs...)
	br := &Bridge{Connect: connect, Logf: t.Logf}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		br.Run(context.Background(), inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close() })
	go io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`+"\n"+
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"+
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`+"\n"+
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_note","arguments":{"path":"a"}}}`+"\n")
	got := make(chan []string, 1)
	go func() {
		var ids []string
		for r := bufio.NewReader(outR); len(ids) < 3; {
			line, err := r.ReadBytes('\n')
			if err != nil {
				break
			}
			var m struct {
				ID    json.RawMessage `json:"id"`
				Error any             `json:"error"`
			}
			if json.Unmarshal(line, &m) != nil || m.Error != nil {
				t.Errorf("the client got %s", line)
			}
			ids = append(ids, string(m.ID))
		}
		got <- ids
	}()
	select {
	case ids := <-got:
		if strings.Join(ids, " ") != "1 2 3" {
			t.Errorf("the client got answers to %v, want 1 2 3", ids)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("the read-only call was never answered (%d daemons connected)", connects.Load())
	}
}

// TestBridge_ResubscribesOnAQuickDaemon: the new daemon's answer to the
// replayed initialize is read before the bridge begins to relay (the
// daemon writes it before it reads anything; the bridge waits for it to
// be read). The bridge still makes the client's subscription again.
func TestBridge_ResubscribesOnAQuickDaemon(t *testing.T) {
	// The bridge is slow to look: the answer has been read first.
	testHookRelaying = func(b *Bridge) {
		for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			b.mu.Lock()
			replayed := b.replay == ""
			b.mu.Unlock()
			if replayed {
				return
			}
		}
	}
	defer func() { testHookRelaying = nil }()
	resubscribed := make(chan string, 1)
	daemons := []func(r *bufio.Reader, w io.Writer){
		func(r *bufio.Reader, w io.Writer) { // answers, then dies
			for _, want := range []string{"initialize", "notifications/initialized", "resources/subscribe"} {
				line, _ := r.ReadBytes('\n')
				var m struct {
					ID     json.RawMessage `json:"id"`
					Method string          `json:"method"`
				}
				if json.Unmarshal(line, &m) != nil || m.Method != want {
					t.Errorf("the first daemon read %q, want %s", line, want)
					return
				}
				if len(m.ID) > 0 {
					io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":{}}`+"\n")
				}
			}
		},
		func(r *bufio.Reader, w io.Writer) { // answers before it reads
			io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n")
			var methods []string
			for range 3 {
				line, err := r.ReadBytes('\n')
				if err != nil {
					break
				}
				var m struct{ Method string }
				json.Unmarshal(line, &m)
				methods = append(methods, m.Method)
			}
			resubscribed <- strings.Join(methods, " ")
			io.Copy(io.Discard, r)
		},
	}
	connect, _ := scriptedDaemons(t, daemons...)
	br := &Bridge{Connect: connect}
	inR, inW := io.Pipe()
	ran := make(chan struct{})
	go func() {
		br.Run(context.Background(), inR, io.Discard)
		close(ran)
	}()
	go io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`+"\n"+
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"+
		`{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"wiki://note/a"}}`+"\n")
	select {
	case got := <-resubscribed:
		if want := "initialize notifications/initialized resources/subscribe"; got != want {
			t.Errorf("the new daemon read %s, want %s", got, want)
		}
	case <-time.After(5 * time.Second):
		t.Errorf("the subscription was not made again on the new daemon")
	}
	inW.Close()
	<-ran
}

// scriptedDaemons returns a Bridge.Connect whose n-th connection reaches
// the n-th of daemons, run on the daemon's end, and the count of
// connections made. A nil daemon is one killed while it started: the
// connection fails. The connections are the daemon's own (a unix socket,
// a named pipe on Windows), not net.Pipe: a daemon's answer may wait in
// the socket while the bridge still writes.
func scriptedDaemons(t *testing.T, daemons ...func(*bufio.Reader, io.Writer)) (func(context.Context) (*Conn, error), *atomic.Int32) {
	socket := filepath.Join(t.TempDir(), "s")
	l, err := listenSocket(socket)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var connects atomic.Int32
	return func(ctx context.Context) (*Conn, error) {
		n := int(connects.Add(1))
		if n > len(daemons) {
			return nil, errors.New("no more daemons")
		}
		if daemons[n-1] == nil {
			return nil, errors.New("the daemon exited (signal: killed)")
		}
		client, err := dialSocket(ctx, socket)
		if err != nil {
			return nil, err
		}
		server, err := l.Accept()
		if err != nil {
			return nil, err
		}
		go func() {
			defer server.Close()
			daemons[n-1](bufio.NewReader(server), server)
		}()
		return &Conn{Conn: client, r: bufio.NewReader(client)}, nil
	}, &connects
}
