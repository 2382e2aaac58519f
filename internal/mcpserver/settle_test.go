package mcpserver_test

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/tool"
)

// holdingProfile serves two changes, hold and last, that run until their
// channel is closed, and say on started when they have begun.
func holdingProfile(started chan<- string, hold, last <-chan struct{}) tool.Profile {
	in := tool.Object("")
	run := func(name string, until <-chan struct{}) func(context.Context, *tool.Env, []byte) (any, string, error) {
		return func(ctx context.Context, _ *tool.Env, _ []byte) (any, string, error) {
			started <- name
			<-until
			return map[string]any{}, "done", nil
		}
	}
	return tool.Profile{Tools: func() []*tool.Tool {
		return []*tool.Tool{
			{Name: "hold", Group: tool.GroupNotes, Description: "Holds.", Input: in, Mutating: true, Run: run("hold", hold)},
			{Name: "last", Group: tool.GroupNotes, Description: "Holds.", Input: in, Mutating: true, Run: run("last", last)},
		}
	}}
}

// waitPending waits until o counts sessions orphaned sessions, for 30 s at
// most.
func waitPending(t *testing.T, o *mcpserver.Orphans, sessions int) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
		if n, _ := o.Pending(); n == sessions {
			return
		}
		if time.Now().After(deadline) {
			n, _ := o.Pending()
			t.Fatalf("%d sessions with orphaned changes, want %d", n, sessions)
		}
	}
}

// TestServeStdio_OrphansQueuedChanges: a client sends more changes than a
// session runs at once and goes away. The session sees its input end while
// the first changes still run, and holds them all, the one that waits for
// them too, as orphaned until the last has ended.
func TestServeStdio_OrphansQueuedChanges(t *testing.T) {
	started := make(chan string, 16)
	hold, last := make(chan struct{}), make(chan struct{})
	profs := tableWith("test-hold", holdingProfile(started, hold, last))
	w := openWiki(t, fixtureRepo(t))
	orphans := &mcpserver.Orphans{}
	srv := mcpserver.New(w, mcpserver.Options{Profiles: profs, Profile: "test-hold", Orphans: orphans})
	inR, inW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(context.Background(), inR, io.Discard) }()
	send := func(msg string) {
		t.Helper()
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	const running = 8 // the calls a session runs at once
	for i := 1; i <= running; i++ {
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"hold","arguments":{}}}`, i))
	}
	for range running {
		<-started
	}
	send(`{"jsonrpc":"2.0","id":"last","method":"tools/call","params":{"name":"last","arguments":{}}}`)
	inW.Close()
	waitPending(t, orphans, 1)
	close(hold)
	if name := <-started; name != "last" {
		t.Fatalf("%s started, want last", name)
	}
	if n, _ := orphans.Pending(); n != 1 {
		t.Errorf("the orphaned changes settled while one still runs")
	}
	close(last)
	waitPending(t, orphans, 0)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
