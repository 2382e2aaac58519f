package e2e_test

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// pyClientDir holds the Python client of the end-to-end tests.
const pyClientDir = "pyclient"

// pythonSDK returns a Python whose mcp package is the official SDK 2.x:
// $WIKID_E2E_PYTHON, else python3. Without one the test is skipped, or
// fails under CI, which installs it (.ci/run).
func pythonSDK(tb testing.TB) string {
	tb.Helper()
	py := os.Getenv("WIKID_E2E_PYTHON")
	if py == "" {
		py = "python3"
	}
	out, err := exec.Command(py, "-c", "import importlib.metadata as m; print(m.version('mcp'))").CombinedOutput()
	if err == nil && strings.HasPrefix(strings.TrimSpace(string(out)), "2.") {
		return py
	}
	msg := "no Python with the MCP Python SDK 2.x (pip install -r internal/e2e/pyclient/requirements.txt, or set WIKID_E2E_PYTHON)"
	if os.Getenv("CI") != "" {
		tb.Fatalf("%s: %v %s", msg, err, out)
	}
	tb.Skip(msg)
	return ""
}

// lineClient is a client process that reports on its standard output,
// a JSON object a line, each kept with when it arrived.
type lineClient struct {
	name   string
	stdin  io.WriteCloser
	mu     sync.Mutex
	lines  []clientLine
	more   chan struct{}
	stderr *lockedBuffer
}

// clientLine is one line of a lineClient.
type clientLine struct {
	Event    string `json:"event"`
	URI      string `json:"uri"`
	Protocol string `json:"protocol"`
	Method   string `json:"method"`
	// Honored are the URIs the server acknowledged, on "ready".
	Honored []string `json:"honored"`
	at      time.Time
}

// startLineClient runs cmd as a lineClient named name; the test's end
// closes its input and waits for it.
func startLineClient(tb testing.TB, name string, cmd *exec.Cmd) *lineClient {
	tb.Helper()
	c := &lineClient{name: name, more: make(chan struct{}, 1), stderr: &lockedBuffer{}}
	cmd.Stderr = c.stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var l clientLine
			if json.Unmarshal(sc.Bytes(), &l) != nil {
				continue
			}
			l.at = time.Now()
			c.mu.Lock()
			c.lines = append(c.lines, l)
			c.mu.Unlock()
			select {
			case c.more <- struct{}{}:
			default:
			}
		}
	}()
	tb.Cleanup(func() {
		c.stdin.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		cmd.Wait()
		if tb.Failed() {
			tb.Logf("%s standard error:\n%s", name, c.stderr)
		}
	})
	return c
}

// await waits up to 10 s for a line at or after start that ok accepts.
func (c *lineClient) await(tb testing.TB, what string, start time.Time, ok func(clientLine) bool) clientLine {
	tb.Helper()
	deadline := time.After(10 * time.Second)
	for {
		c.mu.Lock()
		i := slices.IndexFunc(c.lines, func(l clientLine) bool { return !l.at.Before(start) && ok(l) })
		var l clientLine
		if i >= 0 {
			l = c.lines[i]
		}
		c.mu.Unlock()
		if i >= 0 {
			return l
		}
		select {
		case <-c.more:
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			tb.Fatalf("%s: no %s within 10 s\n%s", c.name, what, c.stderr)
		}
	}
}

// updates returns the notifications of changed resources that arrived at
// or after start, asked for or not.
func (c *lineClient) updates(start time.Time) []clientLine {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []clientLine
	for _, l := range c.lines {
		if !l.at.Before(start) && (l.Event == "updated" || l.Event == "unrequested") {
			out = append(out, l)
		}
	}
	return out
}

// TestPythonSDK_Subscriptions is the official Python SDK 2.x in its auto
// mode, which chooses protocol 2026-07-28 (subscriptions/listen), over
// stdio through the daemon and over HTTP: a note subscribed is told of a
// change by another client, by the command line and by git in the
// checkout; a session that did not ask is told nothing; a closed stream
// (unsubscribed) is told nothing more. The delays are logged with their
// median and maximum; the test allows 10 s.
func TestPythonSDK_Subscriptions(t *testing.T) {
	py := pythonSDK(t)
	script, err := filepath.Abs(filepath.Join(pyClientDir, "watch.py"))
	if err != nil {
		t.Fatal(err)
	}
	dir := fixtureRepo(t)
	env := sharedEnv(t, dir)
	const token = "python-sdk-test"
	p := startBinary(t, wikidBin, env, "--repo", dir, "--http", "127.0.0.1:0", "--token", token)
	if p.url == "" {
		<-p.exited
		t.Fatalf("wikid serve --http exited: %v\n%s", p.cmd.ProcessState, p.stderr)
	}
	const notePath = "projects/alpha/plan"
	noteURI := "wiki://note/" + notePath
	start := func(name, kind string, uris ...string) *lineClient {
		args := []string{script, "stdio", wikidBin, dir}
		if kind == "http" {
			args = []string{script, "http", p.url, token}
		}
		cmd := exec.Command(py, append(args, uris...)...)
		cmd.Env = env
		c := startLineClient(t, name, cmd)
		ready := c.await(t, "ready", time.Time{}, func(l clientLine) bool { return l.Event == "ready" })
		if ready.Protocol != "2026-07-28" {
			t.Errorf("%s: protocol %q, want 2026-07-28", name, ready.Protocol)
		}
		return c
	}
	watchers := []*lineClient{start("watcher-stdio", "stdio", noteURI), start("watcher-http", "http", noteURI)}
	quiet := []*lineClient{start("quiet-stdio", "stdio"), start("quiet-http", "http")}
	writer := connectGoSDK(t, "writer", stdioTransport(env, dir))

	changes := goSDKChanges(t, writer, env, dir, notePath)
	delays, _ := awaitChanges(t, changes, "Python", noteURI, watchers, quiet)

	// The stdio watcher closes its stream; the HTTP watcher, still
	// listening, says when the next change was sent.
	io.WriteString(watchers[0].stdin, "stop\n")
	watchers[0].await(t, "stopped", time.Time{}, func(l clientLine) bool { return l.Event == "stopped" })
	began := time.Now()
	changes[0].make(t, "# Plan\n\nafter the Python stream closed\n")
	watchers[1].await(t, "update after the other stopped", began, func(l clientLine) bool { return l.Event == "updated" && l.URI == noteURI })
	time.Sleep(500 * time.Millisecond)
	if got := watchers[0].updates(began); len(got) > 0 {
		t.Errorf("%s closed its stream and was told %+v", watchers[0].name, got)
	}

	logDelays(t, "Python SDK on 2026-07-28", delays)
}

// awaitChanges makes each change (the note's text naming sdk), and waits
// for every watcher to be told of uri; then checks that the quiet clients
// were told nothing. It returns the delays from each change to each
// watcher's line, and when the first change began.
func awaitChanges(t *testing.T, changes []change, sdk, uri string, watchers, quiet []*lineClient) ([]time.Duration, time.Time) {
	t.Helper()
	var delays []time.Duration
	start := time.Now()
	for _, ch := range changes {
		t.Run(ch.how, func(t *testing.T) {
			began := time.Now()
			ch.make(t, "# Plan\n\nby "+ch.how+" for "+sdk+"\n")
			for _, w := range watchers {
				l := w.await(t, "update of "+uri, began, func(l clientLine) bool { return l.Event == "updated" && l.URI == uri })
				d := l.at.Sub(began)
				delays = append(delays, d)
				t.Logf("%s: %s is told %s after the change began", ch.how, w.name, d.Round(time.Millisecond))
			}
		})
	}
	for _, q := range quiet {
		if got := q.updates(start); len(got) > 0 {
			t.Errorf("%s asked for nothing and was told %+v", q.name, got)
		}
	}
	return delays, start
}

// logDelays logs the median and maximum of delays, which must not be
// empty.
func logDelays(t *testing.T, what string, delays []time.Duration) {
	t.Helper()
	slices.Sort(delays)
	if len(delays) == 0 {
		t.Fatal("no delay measured")
	}
	t.Logf("%s: %d notifications, median %s, max %s after the change began",
		what, len(delays), delays[len(delays)/2].Round(time.Millisecond), delays[len(delays)-1].Round(time.Millisecond))
}
