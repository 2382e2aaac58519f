package daemon

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/history"
	"github.com/wikid/wikid/internal/index"
	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/profiles/wikid"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// testWiki opens a wiki over a small generated repository.
func testWiki(tb testing.TB) (*wiki.Wiki, string) {
	tb.Helper()
	return testWikiWith(tb, gitstore.Options{})
}

// testWikiWith is testWiki with the store's options.
func testWikiWith(tb testing.TB, so gitstore.Options) (*wiki.Wiki, string) {
	tb.Helper()
	ctx := context.Background()
	dir := tb.TempDir()
	gittest.Generate(tb, dir, 20, 5)
	store, err := gitstore.Open(ctx, dir, so)
	if err != nil {
		tb.Fatal(err)
	}
	idx, err := index.Open(ctx, filepath.Join(store.Dir(), "index"), index.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	hist, err := history.Open(ctx, store, history.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	w, err := wiki.Open(ctx, wiki.Deps{Store: store, Index: idx, History: hist, Graph: graph.New()},
		wiki.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { w.Close(ctx) })
	return w, dir
}

// testEndpoint is the endpoint of dir's daemon in a runtime folder of the
// test's own.
func testEndpoint(tb testing.TB, dir string) Endpoint {
	tb.Helper()
	rt, err := os.MkdirTemp("", "wkdt")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(rt) })
	gitDir, err := gitstore.Locate(dir)
	if err != nil {
		tb.Fatal(err)
	}
	e, err := EndpointFor(rt, gitDir)
	if err != nil {
		tb.Fatal(err)
	}
	return e
}

// serve takes the daemon lock and runs a daemon until the test ends or it
// stops; the returned channel is closed when Serve has returned and the
// lock is let go of.
func serve(tb testing.TB, opts Options) (context.CancelFunc, <-chan struct{}) {
	tb.Helper()
	if opts.Lock == nil {
		lock, err := Acquire(opts.Endpoint)
		if err != nil {
			tb.Fatal(err)
		}
		opts.Lock = lock
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan struct{})
	opts.Ready = func(string) { close(ready) }
	opts.MCP.Logger = slog.New(slog.DiscardHandler)
	if opts.MCP.Profiles == nil {
		opts.MCP.Profiles = mcpserver.Profiles{mcpserver.ProfileWikid: wikid.Profile()}
	}
	done := make(chan struct{})
	var err error
	go func() {
		err = Serve(ctx, opts)
		opts.Lock.Release()
		close(done)
	}()
	select {
	case <-ready:
	case <-done:
		tb.Fatalf("Serve: %v", err)
	case <-time.After(10 * time.Second):
		tb.Fatal("the daemon did not get ready")
	}
	tb.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			tb.Error("the daemon did not stop")
		}
	})
	return cancel, done
}

func TestDaemon_statusStopAndSocket(t *testing.T) {
	w, dir := testWiki(t)
	e := testEndpoint(t, dir)
	_, done := serve(t, Options{Endpoint: e, Wiki: w})
	fi, err := os.Stat(e.Socket)
	if err != nil || fi.Mode().Perm() != 0o600 || fi.Mode()&os.ModeSocket == 0 {
		t.Fatalf("socket %s: %v %v", e.Socket, fi.Mode(), err)
	}
	st, err := GetStatus(context.Background(), e)
	if err != nil || st.PID != os.Getpid() || st.GitDir != e.GitDir {
		t.Fatalf("status %+v: %v", st, err)
	}
	if err := Stop(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the daemon did not stop")
	}
	if _, err := os.Stat(e.Socket); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the socket is still there after stop: %v", err)
	}
	if _, err := GetStatus(context.Background(), e); !errors.Is(err, ErrNotRunning) {
		t.Errorf("status after stop: %v, want ErrNotRunning", err)
	}
}

func TestDaemon_secondDaemonRefused(t *testing.T) {
	w, dir := testWiki(t)
	e := testEndpoint(t, dir)
	serve(t, Options{Endpoint: e, Wiki: w})
	_, err := Acquire(e)
	var running *RunningError
	if !errors.As(err, &running) || !errors.Is(err, ErrRunning) || running.PID != os.Getpid() ||
		!strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Fatalf("a second daemon's lock: %v, want a RunningError naming pid %d", err, os.Getpid())
	}
	if err := Serve(context.Background(), Options{Endpoint: e, Wiki: w}); err == nil {
		t.Fatal("Serve without the lock: no error")
	}
	if _, err := GetStatus(context.Background(), e); err != nil {
		t.Errorf("the first daemon stopped answering: %v", err)
	}
}

func TestDaemon_staleSocketReplaced(t *testing.T) {
	w, dir := testWiki(t)
	e := testEndpoint(t, dir)
	// A socket file with nobody behind it, as a killed daemon leaves.
	ln, err := net.Listen("unix", e.Socket)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	if _, err := GetStatus(context.Background(), e); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("status on a stale socket: %v, want ErrNotRunning", err)
	}
	serve(t, Options{Endpoint: e, Wiki: w})
	if _, err := GetStatus(context.Background(), e); err != nil {
		t.Errorf("the daemon over a stale socket does not answer: %v", err)
	}
}

func TestDaemon_idleExit(t *testing.T) {
	w, dir := testWiki(t)
	e := testEndpoint(t, dir)
	_, done := serve(t, Options{Endpoint: e, Wiki: w, Idle: 300 * time.Millisecond})
	// While a client is connected, it stays.
	c, err := ConnectMCP(context.Background(), e, MCPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
		t.Fatal("the daemon exited with a client connected")
	case <-time.After(time.Second):
	}
	c.Close()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the daemon did not exit after its last client left")
	}
}

func TestDaemon_mcpConnectionsAreSessions(t *testing.T) {
	w, dir := testWiki(t)
	e := testEndpoint(t, dir)
	serve(t, Options{Endpoint: e, Wiki: w})
	ask := func(c *Conn, line string) string {
		t.Helper()
		if _, err := io.WriteString(c, line+"\n"); err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(c)
		out, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	a, err := ConnectMCP(context.Background(), e, MCPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := ConnectMCP(context.Background(), e, MCPOptions{ReadOnly: true, Tools: []string{tool.GroupWiki}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"%s","version":"1"}}}`
	for _, c := range []*Conn{a, b} {
		if out := ask(c, strings.Replace(init, "%s", "c", 1)); !strings.Contains(out, `"serverInfo"`) {
			t.Fatalf("initialize: %s", out)
		}
	}
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	if out := ask(a, list); !strings.Contains(out, `"write_note"`) {
		t.Errorf("the first connection lacks write_note")
	}
	if out := ask(b, list); strings.Contains(out, `"write_note"`) || !strings.Contains(out, `"wiki_status"`) {
		t.Errorf("a read-only connection with the wiki group only lists %.300s", out)
	}
	st, err := GetStatus(context.Background(), e)
	if err != nil || st.Clients.MCP != 2 {
		t.Errorf("status counts %d MCP clients (%v), want 2", st.Clients.MCP, err)
	}
}

func TestRuntimeDir_refusesOpenFolder(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows has no mode bits: a runtime folder's owner is checked instead")
	}
	dir := filepath.Join(t.TempDir(), "rt")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	getenv := func(k string) string {
		if k == "WIKID_RUNTIME_DIR" {
			return dir
		}
		return ""
	}
	if _, err := RuntimeDir(getenv); err == nil || !strings.Contains(err.Error(), "chmod 700") {
		t.Errorf("a runtime folder others can enter: %v", err)
	}
	os.Chmod(dir, 0o700)
	if got, err := RuntimeDir(getenv); err != nil || got != dir {
		t.Errorf("a private runtime folder: %q, %v", got, err)
	}
}

// TestIdleAfterWork trims once a burst of work is over: not while work
// goes on, not when there was none, not twice for one burst.
func TestIdleAfterWork(t *testing.T) {
	for _, c := range []struct {
		sinceTrim, lastLook uint64
		want                bool
	}{
		{64 << 20, 0, true},        // idle after 64 MiB of work
		{64 << 20, 8 << 20, false}, // still working
		{1 << 20, 0, false},        // idle, but little work since the last trim
		{0, 0, false},              // just trimmed
		{trimWork, idleAlloc - 1, true},
		{trimWork - 1, 0, false},
	} {
		if got := idleAfterWork(c.sinceTrim, c.lastLook); got != c.want {
			t.Errorf("idleAfterWork(%d, %d) = %t, want %t", c.sinceTrim, c.lastLook, got, c.want)
		}
	}
}
