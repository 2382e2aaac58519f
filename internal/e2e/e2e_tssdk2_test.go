package e2e_test

import (
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// e2eDirV2 holds the Node package of the end-to-end tests with the
// TypeScript SDK 2.x (@modelcontextprotocol/client).
const e2eDirV2 = "client2"

// TestTypeScriptSDK2_Subscriptions is the official TypeScript SDK 2.x in
// its auto mode, which chooses protocol 2026-07-28 (subscriptions/listen),
// over stdio through the daemon and over HTTP: a note subscribed is told
// of a change by another client, by the command line and by git in the
// checkout; a session that did not ask is told nothing; a closed stream
// (unsubscribed) is told nothing more. The delays are logged with their
// median and maximum; the test allows 10 s.
func TestTypeScriptSDK2_Subscriptions(t *testing.T) {
	nodeV2.require(t)
	script, err := filepath.Abs(filepath.Join(e2eDirV2, "watch.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	dir := fixtureRepo(t)
	env := sharedEnv(t, dir)
	const token = "typescript-sdk-2-test"
	p := startBinary(t, wikidBin, env, "--repo", dir, "--http", "127.0.0.1:0", "--token", token)
	if p.url == "" {
		<-p.exited
		t.Fatalf("wikid serve --http exited: %v\n%s", p.cmd.ProcessState, p.stderr)
	}
	const notePath = "projects/alpha/plan"
	noteURI := "wiki://note/" + notePath
	// The clients start together, and then each waits for its session.
	var started []func()
	start := func(name, kind string, uris ...string) *lineClient {
		args := []string{script, "stdio", wikidBin, dir}
		if kind == "http" {
			args = []string{script, "http", p.url, token}
		}
		cmd := exec.Command("node", append(args, uris...)...)
		cmd.Env = env
		c := startLineClient(t, name, cmd)
		started = append(started, func() {
			ready := c.await(t, "ready", time.Time{}, func(l clientLine) bool { return l.Event == "ready" })
			if ready.Protocol != "2026-07-28" {
				t.Errorf("%s: protocol %q, want 2026-07-28", name, ready.Protocol)
			}
			if len(uris) > 0 && !slices.Equal(ready.Honored, uris) {
				t.Errorf("%s: the server acknowledged %q, want %q", name, ready.Honored, uris)
			}
		})
		return c
	}
	watchers := []*lineClient{start("watcher-stdio", "stdio", noteURI), start("watcher-http", "http", noteURI)}
	quiet := []*lineClient{start("quiet-stdio", "stdio"), start("quiet-http", "http")}
	for _, ready := range started {
		ready()
	}
	// The clients end together: each waits a second for its wikid serve.
	t.Cleanup(func() {
		for _, c := range append(watchers, quiet...) {
			c.stdin.Close()
		}
	})
	// The writer, a session of the Go SDK, listens to the end too, to say
	// when a change was sent after the watchers closed their streams.
	writer := connectGoSDK(t, "writer", stdioTransport(env, dir))
	if err := writer.session.Subscribe(context.Background(), &mcp.SubscribeParams{URI: noteURI}); err != nil {
		t.Fatalf("writer: subscribe: %v", err)
	}

	changes := goSDKChanges(t, writer, env, dir, notePath)
	delays, start0 := awaitChanges(t, changes, "TypeScript", noteURI, watchers, quiet)
	for _, w := range watchers {
		if got := w.unrequested(start0); len(got) > 0 {
			t.Errorf("%s was told, outside its stream, %+v", w.name, got)
		}
	}

	// Each watcher closes its stream in turn; another, still listening,
	// says when the next change was sent.
	for i, w := range watchers {
		io.WriteString(w.stdin, "stop\n")
		w.await(t, "stopped", time.Time{}, func(l clientLine) bool { return l.Event == "stopped" })
		began := time.Now()
		changes[i].make(t, "# Plan\n\nafter the TypeScript stream of "+w.name+" closed\n")
		if i+1 < len(watchers) {
			watchers[i+1].await(t, "update after "+w.name+" stopped", began, func(l clientLine) bool { return l.Event == "updated" && l.URI == noteURI })
		} else {
			writer.told(t, noteURI, began)
		}
		time.Sleep(500 * time.Millisecond)
		if got := w.updates(began); len(got) > 0 {
			t.Errorf("%s closed its stream and was told %+v", w.name, got)
		}
	}

	logDelays(t, "TypeScript SDK 2.x on 2026-07-28", delays)
}

// unrequested returns the notifications of changed resources that arrived
// at or after start outside a listen stream.
func (c *lineClient) unrequested(start time.Time) []clientLine {
	var out []clientLine
	for _, l := range c.updates(start) {
		if l.Event == "unrequested" {
			out = append(out, l)
		}
	}
	return out
}
