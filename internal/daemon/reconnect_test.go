package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// fastPauses makes the bridge's pauses between reconnections short for a
// test.
func fastPauses(t *testing.T) {
	first, last := firstPause, lastPause
	firstPause, lastPause = time.Millisecond, 10*time.Millisecond
	t.Cleanup(func() { firstPause, lastPause = first, last })
}

// answeringDaemon answers what it reads, as a daemon does (the tools are
// read_note, read-only, and write_note), until it has read die requests
// (0: never); then it goes away without answering the last one.
func answeringDaemon(die int) func(r *bufio.Reader, w io.Writer) {
	return func(r *bufio.Reader, w io.Writer) {
		for n := 1; ; n++ {
			line, err := r.ReadBytes('\n')
			if err != nil {
				return
			}
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 {
				n--
				continue // a notification
			}
			if n == die {
				return
			}
			result := `{}`
			switch m.Method {
			case "tools/list":
				result = `{"tools":[{"name":"read_note","annotations":{"readOnlyHint":true}},{"name":"write_note"}]}`
			case "tools/call":
				result = `{"content":[{"type":"text","text":"done"}]}`
			}
			io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":`+result+"}\n")
		}
	}
}

// goneBeforeHandshake is a daemon that goes away after it read the replayed
// handshake, before it answers it.
func goneBeforeHandshake(r *bufio.Reader, w io.Writer) {
	r.ReadBytes('\n')
	r.ReadBytes('\n')
}

// bridgeClient runs a bridge over connect and returns a function that
// writes a line of the client's (and, given none, ends its input), the
// client's messages as the bridge writes them, and what Run returned.
func bridgeClient(t *testing.T, connect func(context.Context) (*Conn, error)) (send func(...string), got <-chan map[string]any, ran <-chan error) {
	br := &Bridge{Connect: connect, Logf: t.Logf}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- br.Run(context.Background(), inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	messages := make(chan map[string]any, 100)
	go func() {
		defer close(messages)
		for r := bufio.NewReader(outR); ; {
			line, err := r.ReadBytes('\n')
			if err != nil {
				return
			}
			var m map[string]any
			if err := json.Unmarshal(line, &m); err != nil {
				t.Errorf("the client got %q: %v", line, err)
			}
			messages <- m
		}
	}()
	return func(lines ...string) {
		if len(lines) == 0 {
			inW.Close()
		}
		for _, line := range lines {
			if _, err := io.WriteString(inW, line+"\n"); err != nil {
				t.Errorf("write %s: %v", line, err)
			}
		}
	}, messages, done
}

const (
	clientInit   = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`
	clientInited = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	clientList   = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
)

// readCall is a call of read_note with id and a progress token.
func readCall(id int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"read_note","arguments":{"path":"a"},"_meta":{"progressToken":"p%d"}}}`, id, id)
}

// answers reads the client's messages until every one of ids is answered,
// and returns the answers by id and the progress notifications that came.
func answers(t *testing.T, got <-chan map[string]any, ran <-chan error, ids ...int) (map[int]map[string]any, []map[string]any) {
	t.Helper()
	byID := map[int]map[string]any{}
	var progress []map[string]any
	deadline := time.After(30 * time.Second)
	for len(byID) < len(ids) {
		select {
		case m, ok := <-got:
			if !ok {
				t.Fatalf("the bridge ended (%v) with %d of %d calls answered: %v", <-ran, len(byID), len(ids), byID)
			}
			if m["method"] == "notifications/progress" {
				progress = append(progress, m)
				continue
			}
			id, _ := m["id"].(float64)
			byID[int(id)] = m
		case <-deadline:
			t.Fatalf("%d of %d calls answered in 30 s: %v", len(byID), len(ids), byID)
		}
	}
	for _, id := range ids {
		if m := byID[id]; m == nil || m["error"] != nil {
			t.Errorf("call %d: %v, want its result", id, m)
		}
	}
	return byID, progress
}

// TestBridge_DaemonDiesTwiceInARow: the daemon goes away during a read,
// and the next one is killed while it starts. The bridge starts another,
// and every call of the client is answered by it, the one in flight and
// one the client sent while no daemon was there.
func TestBridge_DaemonDiesTwiceInARow(t *testing.T) {
	fastPauses(t)
	tried := make(chan struct{})
	connect, connects := scriptedDaemons(t,
		answeringDaemon(3), // the handshake, tools/list, then the read: gone
		nil,                // killed while it starts
		answeringDaemon(0),
	)
	send, got, ran := bridgeClient(t, func(ctx context.Context) (*Conn, error) {
		c, err := connect(ctx)
		if connects.Load() == 2 {
			close(tried)
		}
		return c, err
	})
	send(clientInit)
	send(clientInited)
	send(clientList)
	send(readCall(3))
	select {
	case <-tried:
	case <-time.After(30 * time.Second):
		t.Fatal("the bridge did not reconnect")
	}
	send(readCall(4))
	answers(t, got, ran, 1, 2, 3, 4)
	if n := connects.Load(); n != 3 {
		t.Errorf("%d connections, want 3", n)
	}
}

// TestBridge_TenDeaths: ten daemons in a row go away, one during a read,
// the others while they start or before they answer the replayed
// handshake. The bridge keeps trying; the calls that wait are told so by
// progress notifications, and answered by the daemon that stays.
func TestBridge_TenDeaths(t *testing.T) {
	fastPauses(t)
	daemons := []func(*bufio.Reader, io.Writer){answeringDaemon(3)}
	for i := range 9 {
		if i%3 == 1 {
			daemons = append(daemons, goneBeforeHandshake)
		} else {
			daemons = append(daemons, nil)
		}
	}
	daemons = append(daemons, answeringDaemon(0))
	connect, connects := scriptedDaemons(t, daemons...)
	every := progressEvery
	progressEvery = time.Millisecond
	t.Cleanup(func() { progressEvery = every })
	// The sixth attempt waits until the client has been told that its
	// calls wait.
	told := make(chan struct{})
	send, got, ran := bridgeClient(t, func(ctx context.Context) (*Conn, error) {
		if connects.Load() == 5 {
			select {
			case <-told:
			case <-time.After(30 * time.Second):
				t.Error("no progress notification while the calls waited")
			}
		}
		return connect(ctx)
	})
	seen := make(chan map[string]any, 100)
	go func() {
		once := false
		for m := range got {
			if m["method"] == "notifications/progress" && !once {
				once = true
				close(told)
			}
			seen <- m
		}
		close(seen)
	}()
	send(clientInit)
	send(clientInited)
	send(clientList)
	send(readCall(3))
	send(readCall(4))
	_, progress := answers(t, seen, ran, 1, 2, 3, 4)
	if n := connects.Load(); n != int32(len(daemons)) {
		t.Errorf("%d connections, want %d", n, len(daemons))
	}
	if len(progress) == 0 {
		t.Fatal("no progress notification")
	}
	p := progress[0]["params"].(map[string]any)
	if tok := p["progressToken"]; tok != "p3" && tok != "p4" {
		t.Errorf("progress for %v, want p3 or p4", tok)
	}
	if msg, _ := p["message"].(string); !strings.Contains(msg, "went away") {
		t.Errorf("progress message %q", msg)
	}
}

// TestBridge_InputEndsWhileReconnecting: the client sends a read and ends
// its input while the bridge looks for a new daemon. The read, and the one
// in flight when the daemon went away, reach the next daemon that answers
// the handshake and are answered; then the bridge returns.
func TestBridge_InputEndsWhileReconnecting(t *testing.T) {
	fastPauses(t)
	reconnecting, ended := make(chan struct{}), make(chan struct{})
	connect, connects := scriptedDaemons(t, answeringDaemon(3), nil, goneBeforeHandshake, answeringDaemon(0))
	send, got, ran := bridgeClient(t, func(ctx context.Context) (*Conn, error) {
		if connects.Load() == 1 {
			close(reconnecting)
			<-ended
		}
		return connect(ctx)
	})
	send(clientInit, clientInited, clientList, readCall(3))
	<-reconnecting
	send(readCall(4))
	send()
	close(ended)
	answers(t, got, ran, 1, 2, 3, 4)
	select {
	case err := <-ran:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Error("the bridge did not return once its client's input ended and its calls were answered")
	}
}

// TestBridge_InputEndsAsTheDaemonGoes: the client ends its input while the
// daemon goes away with its read in flight. The bridge does not return
// with the read unanswered: it reaches a new daemon, which answers it.
func TestBridge_InputEndsAsTheDaemonGoes(t *testing.T) {
	fastPauses(t)
	read := make(chan struct{})
	connect, _ := scriptedDaemons(t,
		func(r *bufio.Reader, w io.Writer) {
			// Answers the handshake and tools/list, reads the call, and
			// goes away without answering it once the bridge says that
			// nothing more comes.
			answeringDaemon(3)(r, w)
			close(read)
			io.Copy(io.Discard, r)
		},
		answeringDaemon(0))
	send, got, ran := bridgeClient(t, connect)
	send(clientInit, clientInited, clientList, readCall(3))
	<-read
	send()
	answers(t, got, ran, 1, 2, 3)
	select {
	case err := <-ran:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Error("the bridge did not return")
	}
}

// TestBridge_CancelledCallIsNotInFlight: the client cancels a read, which
// the daemon then leaves unanswered, as the specification asks, and ends
// its input. The bridge takes the daemon's end for the end of the session,
// not for a daemon that went away with the read in flight.
func TestBridge_CancelledCallIsNotInFlight(t *testing.T) {
	fastPauses(t)
	connect, connects := scriptedDaemons(t, func(r *bufio.Reader, w io.Writer) {
		answeringDaemon(3)(r, w) // the handshake, tools/list; the read is not answered
		io.Copy(io.Discard, r)
	})
	send, got, ran := bridgeClient(t, connect)
	send(clientInit, clientInited, clientList, readCall(3),
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`)
	answers(t, got, ran, 1, 2)
	send()
	select {
	case err := <-ran:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("the bridge did not return (%d connections)", connects.Load())
	}
	if n := connects.Load(); n != 1 {
		t.Errorf("%d connections, want 1", n)
	}
}
