package e2e_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
)

// wikidBin is the wikid binary the tests drive, built once by TestMain,
// with the race detector when the tests run with it.
var wikidBin string

// minParallel is how many parallel tests run at once unless -parallel
// says otherwise. The tests wait on the processes they drive, not on
// their own CPU: one at a time, they used about half of a 2-core
// machine, so two per core keep both busy.
const minParallel = 4

func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set && runtime.GOMAXPROCS(0) < minParallel {
		flag.Set("test.parallel", strconv.Itoa(minParallel))
	}
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "wikid-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	wikidBin = filepath.Join(dir, "wikid")
	args := []string{"build", "-o", wikidBin}
	if raceEnabled {
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, "../../cmd/wikid")...)
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build wikid: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// plainBin is wikid built without the race detector, for the tests that
// measure its memory, whose bounds the detector's shadow memory would
// swamp, and for the race with git.
var plainBin = sync.OnceValues(func() (string, error) {
	bin := filepath.Join(filepath.Dir(wikidBin), "wikid-plain")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/wikid").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build wikid: %v\n%s", err, out)
	}
	return bin, nil
})

// measuredBin returns the wikid binary whose memory a test measures: the
// one the tests drive, unless that has the race detector.
func measuredBin(tb testing.TB) string {
	tb.Helper()
	if !raceEnabled {
		return wikidBin
	}
	bin, err := plainBin()
	if err != nil {
		tb.Fatal(err)
	}
	return bin
}

// serveEnv is the environment of a wikid under test: the test's own,
// without WIKID_* settings, serving in its own process (the daemon's tests
// use daemonEnv).
func serveEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "WIKID_") {
			env = append(env, kv)
		}
	}
	return append(append(env, "WIKID_NO_DAEMON=1"), extra...)
}

// lockedBuffer collects a process's standard error.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// connectStdio starts `wikid serve args...` as a client would and returns
// the initialized client.
func connectStdio(t *testing.T, args ...string) *client.Client {
	t.Helper()
	return connectStdioWith(t, "", args...)
}

// connectStdioWith is connectStdio with a protocol version ("" for the
// client's preferred one).
func connectStdioWith(t *testing.T, protocol string, args ...string) *client.Client {
	t.Helper()
	stderr := &lockedBuffer{}
	c, err := client.NewStdioMCPClientWithOptions(wikidBin, serveEnv(), append([]string{"serve"}, args...),
		transport.WithCommandStderrWriter(stderr))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("wikid standard error:\n%s", stderr.String())
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	initializeStarted(t, ctx, c, protocol)
	return c
}

func TestServe_Stdio(t *testing.T) {
	dir := fixtureRepo(t)
	runSuite(t, newSession(t, connectStdio(t, "--repo", dir)), dir)
}

// TestServe_StdioLegacy connects over stdio with the initialize handshake,
// as most MCP clients do today: the changes are the client's.
func TestServe_StdioLegacy(t *testing.T) {
	dir := fixtureRepo(t)
	s := newSession(t, connectStdioWith(t, handshakeProtocol, "--repo", dir))
	before := git(t, dir, "rev-parse", "HEAD")
	out, _ := ok[mutationOut](s, "edit_note", map[string]any{"path": "index", "edits": []any{map[string]any{"op": "append", "content": "- legacy"}}})
	checkCommit(t, dir, before, "edit_note", out.Commit)
}

func TestServe_StdioReadOnly(t *testing.T) {
	dir := fixtureRepo(t)
	s := newSession(t, connectStdio(t, "--repo", dir, "--read-only", "--tools", "notes,search,links,history,wiki"))
	checkToolList(t, s, true)
	s.Fail("write_note", map[string]any{"path": "x", "content": "x"}, "READ_ONLY")
	if st, _ := ok[struct {
		ReadOnly bool `json:"read_only"`
	}](s, "wiki_status", nil); !st.ReadOnly {
		t.Error("wiki_status does not say read-only")
	}
	checkClean(t, dir)
}

// served is a running `wikid serve`.
type served struct {
	cmd    *exec.Cmd
	url    string // the endpoint it printed, "" if it printed none
	stderr *lockedBuffer
	exited chan struct{} // closed when it has exited; cmd.ProcessState is set then
}

// startServe runs `wikid serve args...` until it prints its endpoint or
// exits.
func startServe(t *testing.T, env []string, args ...string) *served {
	t.Helper()
	return startBinary(t, wikidBin, env, args...)
}

func TestServe_HTTP(t *testing.T) {
	dir := fixtureRepo(t)
	const token = "t0ken"
	p := startServe(t, serveEnv("WIKID_TOKEN="+token), "--repo", dir, "--http", "127.0.0.1:0")
	url := p.url
	if url == "" {
		<-p.exited
		t.Fatalf("wikid serve exited: %v\n%s", p.cmd.ProcessState, p.stderr)
	}

	resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without the token: %d", resp.StatusCode)
	}

	s := newSession(t, connectHTTP(t, url, map[string]string{"Authorization": "Bearer " + token}, ""))
	waitIndexed(t, s)
	before := git(t, dir, "rev-parse", "HEAD")
	out, _ := ok[mutationOut](s, "write_note", map[string]any{"path": "over-http", "content": "# Over HTTP\n"})
	checkCommit(t, dir, before, "write_note", out.Commit)

	// SIGTERM: the server stops accepting, finishes, closes the wiki and
	// exits cleanly.
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.exited:
	case <-time.After(30 * time.Second):
		t.Fatal("wikid did not exit after SIGTERM")
	}
	if !p.cmd.ProcessState.Success() || !strings.Contains(p.stderr.String(), "shutting down") {
		t.Errorf("exit %v after SIGTERM:\n%s", p.cmd.ProcessState, p.stderr)
	}
	checkClean(t, dir)
}

func TestServe_RefusesOpenBindWithoutToken(t *testing.T) {
	dir := fixtureRepo(t)
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		t.Run(addr, func(t *testing.T) {
			cmd := exec.Command(wikidBin, "serve", "--repo", dir, "--http", addr)
			cmd.Env = serveEnv()
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() == 0 {
				t.Fatalf("wikid serve --http %s without a token: %v\n%s", addr, err, out)
			}
			if want := "refusing to serve on " + addr + " without a token"; !strings.Contains(string(out), want) {
				t.Errorf("output %q lacks %q", out, want)
			}
		})
	}
	t.Run("with a token", func(t *testing.T) {
		p := startServe(t, serveEnv(), "--repo", dir, "--http", "0.0.0.0:0", "--token", "x")
		if p.url == "" {
			<-p.exited
			t.Fatalf("wikid serve with a token exited: %v\n%s", p.cmd.ProcessState, p.stderr)
		}
	})
}
