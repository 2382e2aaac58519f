package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/mcpserver"
)

// TestDaemon_droppedChangeSettlesBeforeARead: a client's connection drops
// while its change waits for a lock (a bridge killed mid-call), and the
// client reads the note at once on a new connection. The read waits for
// the change: it must not say the note is not there and then have the
// change land.
func TestDaemon_droppedChangeSettlesBeforeARead(t *testing.T) {
	// A git command's lock on the index holds the change, for up to a
	// minute.
	w, dir := testWikiWith(t, gitstore.Options{ForeignLockWait: time.Minute})
	lock := filepath.Join(dir, ".git", "index.lock")
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	unlock := func() { os.Remove(lock) }
	t.Cleanup(unlock)
	e := testEndpoint(t, dir)
	orphans := &mcpserver.Orphans{}
	stop, done := serve(t, Options{Endpoint: e, Wiki: w, MCP: mcpserver.Options{Orphans: orphans}})
	const init = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}` + "\n"

	a, err := ConnectMCP(context.Background(), e, MCPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(a, init)
	if _, err := bufio.NewReader(a).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	io.WriteString(a, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"write_note","arguments":{"path":"settle/a","content":"# made\n"}}}`+"\n")
	a.Close() // gone, as a killed bridge is

	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if n, _ := orphans.Pending(); n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Error("the daemon does not hold the dropped connection's change as orphaned")
			break
		}
	}

	b, err := ConnectMCP(context.Background(), e, MCPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	br := bufio.NewReader(b)
	io.WriteString(b, init)
	if _, err := br.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	io.WriteString(b, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_note","arguments":{"path":"settle/a"}}}`+"\n")
	read := make(chan string, 1)
	go func() {
		line, _ := br.ReadString('\n')
		read <- line
	}()
	// The lock goes once the read waits for the change, or was answered.
	var answer string
wait:
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
		select {
		case answer = <-read:
			break wait
		default:
		}
		if _, waiting := orphans.Pending(); waiting > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the read neither waits nor is answered")
		}
	}
	unlock()
	if answer == "" {
		select {
		case answer = <-read:
		case <-time.After(30 * time.Second):
			t.Fatal("the read was not answered once the change was made")
		}
	}
	// Stopping the daemon waits for the change.
	stop()
	<-done
	var res struct {
		Result struct {
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(answer), &res); err != nil {
		t.Fatalf("read %q: %v", answer, err)
	}
	landed := strings.Contains(gittest.Git(t, dir, "log", "--format=%s"), "settle/a")
	switch {
	case res.Result.IsError && landed:
		t.Errorf("the change landed after a read said the note was not there: %s", answer)
	case !res.Result.IsError && !landed:
		t.Errorf("the read saw a change that never landed: %s", answer)
	case !landed:
		t.Errorf("the change was not made: %s", answer)
	}
}
