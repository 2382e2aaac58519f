package e2e_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
)

// stressClients is how many clients write and search at once.
const stressClients = 8

// stressDuration is how long the clients keep at it: $WIKID_STRESS_DURATION
// if set, else 30 s (make test-long; make test skips the test).
func stressDuration(tb testing.TB) time.Duration {
	tb.Helper()
	if v := os.Getenv("WIKID_STRESS_DURATION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			tb.Fatalf("WIKID_STRESS_DURATION=%q: %v", v, err)
		}
		return d
	}
	return 30 * time.Second // the test is skipped with -short
}

// stressAck is a change the server acknowledged.
type stressAck struct {
	client int
	tool   string
	commit string
	path   string // the note changed
	marker string // a word that only this change added
}

// stressLog collects what the clients saw.
type stressLog struct {
	mu        sync.Mutex
	acks      []stressAck
	conflicts int
	searches  int
	failures  []string
}

func (l *stressLog) ack(a stressAck) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.acks = append(l.acks, a)
}

func (l *stressLog) failf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.failures = append(l.failures, fmt.Sprintf(format, args...))
}

// TestE2E_ConcurrentClients has 8 TypeScript SDK clients write and search
// at once over HTTP, against a wikid built with the race detector, for
// stressDuration. Each client in turn creates a note, reads a shared note
// and appends to it with the version it read (which may be CONFLICT), looks
// for its last new note with search_notes (it must be found, unless the
// answer says that the index is catching up), and appends to index without
// a version. No call may fail but with CONFLICT; the race
// detector must stay silent; and, checked with the git CLI, history holds
// one commit per acknowledged change, by its client, adding its marker
// once, and nothing else.
func TestE2E_ConcurrentClients(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for seconds")
	}
	requireNode(t)
	duration := stressDuration(t)
	bin := wikidBin
	dir := fixtureRepo(t)
	gittest.Commit(t, dir, "shared note", map[string]string{"stress/shared.md": "# Shared\n"})
	before := git(t, dir, "rev-parse", "HEAD")
	const token = "stress"
	p := startBinary(t, bin, serveEnv("GORACE=halt_on_error=0"), "--repo", dir, "--http", "127.0.0.1:0", "--token", token)
	if p.url == "" {
		<-p.exited
		t.Fatalf("wikid serve exited: %v\n%s", p.cmd.ProcessState, p.stderr)
	}
	b := startBridge(t)
	clients := make([]*tsClient, stressClients)
	for k := range clients {
		req := httpRequest(p.url, token)
		req["client"] = map[string]string{"name": fmt.Sprintf("stress-%d", k), "version": "1"}
		clients[k] = connectTS(t, b, req)
		clients[k].listTools(t)
	}

	var log stressLog
	deadline := time.Now().Add(duration)
	var wg sync.WaitGroup
	for k, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stressClient(&log, c, k, deadline)
		}()
	}
	wg.Wait()

	// The server stops cleanly and the race detector found nothing.
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.exited:
	case <-time.After(60 * time.Second):
		t.Fatal("wikid did not exit after SIGTERM")
	}
	if strings.Contains(p.stderr.String(), "DATA RACE") || !p.cmd.ProcessState.Success() {
		t.Errorf("wikid exited with %v; standard error:\n%s", p.cmd.ProcessState, p.stderr)
	}

	for _, f := range log.failures {
		t.Error(f)
	}
	t.Logf("%s: %d changes acknowledged, %d conflicts, %d searches",
		duration, len(log.acks), log.conflicts, log.searches)
	checkStressHistory(t, dir, before, log.acks)
}

// stressClient runs client k's round of calls until the deadline.
func stressClient(log *stressLog, c *tsClient, k int, deadline time.Time) {
	shared := ""      // the shared note's version as last read
	lastWritten := -1 // the number of the client's last new note
	for i := 0; time.Now().Before(deadline); i++ {
		var (
			tool   string
			args   map[string]any
			marker string
		)
		switch i % 5 {
		case 0:
			tool, marker = "write_note", fmt.Sprintf("notek%dn%d", k, i)
			args = map[string]any{"path": fmt.Sprintf("stress/c%d/n%d", k, i), "content": "# Note\n\n" + marker + "\n"}
		case 1:
			tool = "read_note"
			args = map[string]any{"path": "stress/shared"}
		case 2:
			tool, marker = "edit_note", fmt.Sprintf("sharedk%dn%d", k, i)
			args = map[string]any{"path": "stress/shared", "expected_version": shared,
				"edits": []any{map[string]any{"op": "append", "content": "- " + marker}}}
		case 3:
			tool = "search_notes"
			args = map[string]any{"query": fmt.Sprintf("notek%dn%d", k, lastWritten)}
		case 4:
			tool, marker = "edit_note", fmt.Sprintf("indexk%dn%d", k, i)
			args = map[string]any{"path": "index", "edits": []any{map[string]any{"op": "append", "content": "- " + marker}}}
		}
		res, err := c.tryCall(tool, args)
		if err != nil {
			log.failf("client %d: %v", k, err)
			return
		}
		if res.IsError {
			if code := res.errorCode(); code != "CONFLICT" || i%5 != 2 {
				log.failf("client %d: %s %v: %s", k, tool, args, res.text())
				return
			}
			log.mu.Lock()
			log.conflicts++
			log.mu.Unlock()
			continue
		}
		var out struct {
			Commit  string `json:"commit"`
			Version string `json:"version"`
			Results []struct {
				Path string `json:"path"`
			} `json:"results"`
		}
		if err := json.Unmarshal(res.StructuredContent, &out); err != nil {
			log.failf("client %d: %s: %v", k, tool, err)
			return
		}
		switch {
		case tool == "read_note":
			shared = out.Version
		case tool == "search_notes":
			log.mu.Lock()
			log.searches++
			log.mu.Unlock()
			// A client finds what it wrote: a search waits for the index.
			want := fmt.Sprintf("stress/c%d/n%d", k, lastWritten)
			if lastWritten >= 0 && (len(out.Results) != 1 || out.Results[0].Path != want) {
				log.failf("client %d: searching for its note %s found %s", k, want, res.StructuredContent)
			}
		case out.Commit == "":
			log.failf("client %d: %s acknowledged without a commit: %s", k, tool, res.StructuredContent)
		default:
			log.ack(stressAck{client: k, tool: tool, commit: out.Commit, path: args["path"].(string), marker: marker})
			if tool == "write_note" {
				lastWritten = i
			}
		}
	}
}

// stressMarker matches the words the stress clients add.
var stressMarker = regexp.MustCompile(`\b(?:note|shared|index)k\d+n\d+\b`)

// checkStressHistory checks with the git CLI that the commits after before
// are exactly the acknowledged changes, each adding its marker, that no
// marker was added twice, and that every marker is still in the notes.
func checkStressHistory(t *testing.T, dir, before string, acks []stressAck) {
	t.Helper()
	if len(acks) == 0 {
		t.Fatal("no change was acknowledged")
	}
	if n := git(t, dir, "rev-list", "--count", before+"..HEAD"); n != fmt.Sprint(len(acks)) {
		t.Errorf("%s commits since the start, %d changes acknowledged", n, len(acks))
	}
	type commit struct{ author, tool string }
	commits := map[string]commit{}
	added := map[string][]string{} // marker → the commits that added it
	var sha string
	for _, line := range strings.Split(gittest.Git(t, dir, "log", "-p", "-U0", "--no-renames",
		"--format=commit %H%nauthor %an%ntool %(trailers:key=Wiki-Tool,valueonly,separator=)", before+"..HEAD"), "\n") {
		switch {
		case strings.HasPrefix(line, "commit "):
			sha = strings.TrimPrefix(line, "commit ")
		case strings.HasPrefix(line, "author "):
			c := commits[sha]
			c.author = strings.TrimPrefix(line, "author ")
			commits[sha] = c
		case strings.HasPrefix(line, "tool "):
			c := commits[sha]
			c.tool = strings.TrimPrefix(line, "tool ")
			commits[sha] = c
		case strings.HasPrefix(line, "+") && !strings.HasPrefix(line, "+++"):
			for _, m := range stressMarker.FindAllString(line, -1) {
				added[m] = append(added[m], sha)
			}
		}
	}
	perClient := make([]int, stressClients)
	for _, a := range acks {
		perClient[a.client]++
		c, ok := commits[a.commit]
		switch {
		case !ok:
			t.Errorf("client %d: %s acknowledged commit %s, which is not in history", a.client, a.tool, a.commit)
		case c.author != fmt.Sprintf("stress-%d", a.client) || c.tool != a.tool:
			t.Errorf("client %d: %s: commit %s by %q with Wiki-Tool %q", a.client, a.tool, a.commit, c.author, c.tool)
		}
		if got := added[a.marker]; !slices.Equal(got, []string{a.commit}) {
			t.Errorf("client %d: %s %s was added by commits %v, want only %s", a.client, a.tool, a.marker, got, a.commit)
		}
	}
	if len(added) != len(acks) {
		t.Errorf("history adds %d markers, %d changes were acknowledged", len(added), len(acks))
	}
	for k, n := range perClient {
		if n == 0 {
			t.Errorf("client %d made no change", k)
		}
	}
	// Nothing was lost later: every marker is still in the notes.
	for _, a := range acks {
		if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(a.path)+".md")); !strings.Contains(string(b), a.marker) {
			t.Errorf("%s of client %d is no longer in %s: %v", a.marker, a.client, a.path, err)
		}
	}
	checkClean(t, dir)
}

// startBinary runs `bin serve args...` until it prints its HTTP endpoint
// or exits.
func startBinary(tb testing.TB, bin string, env []string, args ...string) *served {
	tb.Helper()
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Env = env
	pr, pw := io.Pipe()
	p := &served{cmd: cmd, stderr: &lockedBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = io.MultiWriter(pw, p.stderr)
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	go func() {
		cmd.Wait()
		pw.Close()
		close(p.exited)
	}()
	tb.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			cmd.Process.Kill()
			<-p.exited
		}
		if tb.Failed() {
			tb.Logf("%s standard error:\n%s", filepath.Base(bin), p.stderr)
		}
	})
	found := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`serving MCP at (http://\S+)`)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
				break
			}
		}
		io.Copy(io.Discard, pr)
	}()
	select {
	case p.url = <-found:
	case <-p.exited:
	case <-time.After(60 * time.Second):
		tb.Fatal("wikid serve printed no endpoint")
	}
	return p
}
