package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestBridge_ListenOutlivesDaemons: a client on protocol 2026-07-28 opens
// a subscriptions/listen stream, and four daemons in turn acknowledge it,
// tell it of a change and go away. The client is told once that its
// stream is open, is told of the four changes, and never gets an error:
// the stream is opened again on each daemon, not sent again as a request
// in flight (which ended with an error on the third loss). Once the client
// cancels it, the next daemon is not asked to open it.
func TestBridge_ListenOutlivesDaemons(t *testing.T) {
	const listen = `{"jsonrpc":"2.0","id":"listen:0","method":"subscriptions/listen","params":` +
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"notifications":{"resourceSubscriptions":["wiki://note/a"]}}}`
	var mu sync.Mutex
	var read [][]string // the methods each daemon read
	record := func(n int, line []byte) map[string]any {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Errorf("daemon %d read %q: %v", n, line, err)
		}
		mu.Lock()
		for len(read) < n {
			read = append(read, nil)
		}
		method, _ := m["method"].(string)
		read[n-1] = append(read[n-1], method)
		mu.Unlock()
		return m
	}
	// streaming acknowledges the stream, tells of a change and goes away;
	// the last one reads on until the client's cancel.
	streaming := func(n int, last bool) func(*bufio.Reader, io.Writer) {
		return func(r *bufio.Reader, w io.Writer) {
			for {
				line, err := r.ReadBytes('\n')
				if err != nil {
					return
				}
				m := record(n, line)
				switch m["method"] {
				case "server/discover":
					id, _ := json.Marshal(m["id"])
					io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(id)+`,"result":{}}`+"\n")
				case listenMethod:
					meta := `{"_meta":{"io.modelcontextprotocol/subscriptionId":"listen:0"}`
					io.WriteString(w, `{"jsonrpc":"2.0","method":"`+ackMethod+`","params":`+meta+`,"notifications":{"resourceSubscriptions":["wiki://note/a"]}}}`+"\n")
					io.WriteString(w, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":`+meta+`,"uri":"wiki://note/a"}}`+"\n")
					if !last {
						return
					}
				case "notifications/cancelled":
					return
				}
			}
		}
	}
	after := make(chan []string, 1)
	quiet := func(r *bufio.Reader, w io.Writer) { // reads what comes, answers pings
		var methods []string
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				after <- methods
				return
			}
			m := record(6, line)
			methods = append(methods, m["method"].(string))
			if m["method"] == "ping" {
				io.WriteString(w, `{"jsonrpc":"2.0","id":9,"result":{}}`+"\n")
			}
		}
	}
	connect, connects := scriptedDaemons(t, streaming(1, false), streaming(2, false), streaming(3, false),
		streaming(4, false), streaming(5, true), quiet)
	br := &Bridge{Connect: connect, Logf: t.Logf}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ran := make(chan struct{})
	go func() {
		br.Run(context.Background(), inR, outW)
		outW.Close()
		close(ran)
	}()
	t.Cleanup(func() { inW.Close() })
	lines := make(chan map[string]any, 64)
	go func() {
		defer close(lines)
		for r := bufio.NewReader(outR); ; {
			line, err := r.ReadBytes('\n')
			if err != nil {
				return
			}
			var m map[string]any
			if json.Unmarshal(line, &m) != nil {
				t.Errorf("the client got %q", line)
			}
			lines <- m
		}
	}()
	next := func(what string) map[string]any {
		t.Helper()
		select {
		case m := <-lines:
			return m
		case <-time.After(30 * time.Second):
			t.Fatalf("no %s within 30 s (%d daemons connected; they read %v)", what, connects.Load(), read)
			return nil
		}
	}
	go io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`+"\n"+listen+"\n")
	if m := next("discover answer"); m["id"] != float64(1) {
		t.Fatalf("the client got %v, want the answer to server/discover", m)
	}
	var acks, updates int
	for updates < 5 {
		m := next("notification of the stream")
		switch {
		case m["method"] == ackMethod:
			acks++
		case m["method"] == "notifications/resources/updated":
			updates++
		default:
			t.Fatalf("the client got %v after %d notifications of changes", m, updates)
		}
	}
	if acks != 1 {
		t.Errorf("the client was told %d times that its stream is open, want once", acks)
	}
	go io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"listen:0"}}`+"\n"+
		`{"jsonrpc":"2.0","id":9,"method":"ping"}`+"\n")
	if m := next("ping answer"); m["id"] != float64(9) {
		t.Fatalf("the client got %v, want the answer to its ping", m)
	}
	inW.Close()
	if got := strings.Join(<-after, " "); got != "ping" {
		t.Errorf("after the cancel, the next daemon read %q, want only the ping", got)
	}
	<-ran
	mu.Lock()
	defer mu.Unlock()
	for i, methods := range read[:5] {
		want := listenMethod
		if i == 0 {
			want = "server/discover " + listenMethod
		}
		if i == 4 {
			want += " notifications/cancelled"
		}
		if got := strings.Join(methods, " "); got != want {
			t.Errorf("daemon %d read %q, want %q", i+1, got, want)
		}
	}
}
