package e2e_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
)

// rpcServe is a `wikid serve` over stdio driven with raw JSON-RPC lines, so
// that the test can kill it at any moment.
type rpcServe struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *lockedBuffer
	id     int
}

func startRPC(tb testing.TB, dir string) *rpcServe {
	tb.Helper()
	return startRPCWith(tb, wikidBin, dir, serveEnv())
}

// startRPCWith is startRPC with the wikid binary bin in the environment
// env.
func startRPCWith(tb testing.TB, bin, dir string, env []string) *rpcServe {
	tb.Helper()
	cmd := exec.Command(bin, "serve", "--repo", dir)
	cmd.Env = env
	return startRPCCmd(tb, cmd)
}

// startRPCCmd starts cmd, a wikid serve over stdio, and initializes an MCP
// session with it.
func startRPCCmd(tb testing.TB, cmd *exec.Cmd) *rpcServe {
	tb.Helper()
	p := &rpcServe{cmd: cmd, stderr: &lockedBuffer{}}
	cmd.Stderr = p.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	p.in, p.out = in, bufio.NewReaderSize(out, 1<<16)
	if _, err := p.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "rpc-test", "version": "1"}}); err != nil {
		tb.Fatalf("initialize: %v\n%s", err, p.stderr)
	}
	if err := p.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); err != nil {
		tb.Fatal(err)
	}
	return p
}

func (p *rpcServe) send(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = p.in.Write(append(b, '\n'))
	return err
}

// call sends a request and returns its result; an error when the process
// is gone or answers with an error.
func (p *rpcServe) call(method string, params any) (json.RawMessage, error) {
	p.id++
	if err := p.send(map[string]any{"jsonrpc": "2.0", "id": p.id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	for {
		line, err := p.out.ReadBytes('\n')
		if err != nil {
			return nil, err
		}
		var resp struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(line, &resp) != nil || resp.ID == nil || *resp.ID != p.id {
			continue // a notification
		}
		if resp.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, resp.Error.Message)
		}
		return resp.Result, nil
	}
}

// toolResult is what tools/call returns, as far as the test reads it.
type toolResult struct {
	IsError bool `json:"isError"`
	Content []struct {
		Text string `json:"text"`
	} `json:"content"`
	Structured struct {
		Commit  string `json:"commit"`
		Blocked string `json:"blocked"`
	} `json:"structuredContent"`
}

// tool calls a tool; err is set when the process is gone.
func (p *rpcServe) tool(name string, args map[string]any) (*toolResult, error) {
	raw, err := p.call("tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		return nil, err
	}
	var r toolResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

func (r *toolResult) text() string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// crashWorkload picks the next mutation on the notes at HEAD: writes, edits,
// moves and deletes in turn.
type crashWorkload struct {
	rnd   *rand.Rand
	notes []string // note paths at HEAD
	n     int
}

func (w *crashWorkload) next() (string, map[string]any) {
	w.n++
	if len(w.notes) < 3 {
		return "write_note", map[string]any{"path": fmt.Sprintf("crash/n%d", w.n), "content": fmt.Sprintf("# Note %d\n\nbody\n", w.n)}
	}
	pick := w.notes[w.rnd.IntN(len(w.notes))]
	switch w.n % 4 {
	case 0:
		return "write_note", map[string]any{"path": fmt.Sprintf("crash/d%d/n%d", w.n%5, w.n), "content": fmt.Sprintf("# Note %d\n\nbody\n", w.n)}
	case 1:
		return "edit_note", map[string]any{"path": pick, "edits": []any{map[string]any{"op": "append", "content": fmt.Sprintf("line %d", w.n)}}}
	case 2:
		return "move_note", map[string]any{"path": pick, "new_path": fmt.Sprintf("crash/m%d/moved%d", w.n%3, w.n)}
	default:
		return "delete_note", map[string]any{"path": pick, "confirm": true}
	}
}

// applied updates the notes after an acknowledged mutation.
func (w *crashWorkload) applied(tool string, args map[string]any) {
	path, _ := args["path"].(string)
	switch tool {
	case "write_note":
		w.notes = append(w.notes, path)
	case "move_note":
		w.notes = slices.DeleteFunc(w.notes, func(n string) bool { return n == path })
		w.notes = append(w.notes, args["new_path"].(string))
	case "delete_note":
		w.notes = slices.DeleteFunc(w.notes, func(n string) bool { return n == path })
	}
}

// notesAt lists the note paths under crash/ at HEAD.
func notesAt(tb testing.TB, dir string) []string {
	tb.Helper()
	var out []string
	for _, f := range strings.Fields(gittest.Git(tb, dir, "ls-tree", "-r", "--name-only", "HEAD", "crash")) {
		out = append(out, strings.TrimSuffix(f, ".md"))
	}
	return out
}

// crashLeftovers lists the lock files, temporary files and journals a
// killed wikid left, relative to dir.
func crashLeftovers(tb testing.TB, dir string) []string {
	tb.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		n := d.Name()
		switch {
		case d.IsDir() && rel == filepath.Join(".git", "wikid", "index"):
			return filepath.SkipDir
		case strings.HasSuffix(n, ".lock"), strings.HasPrefix(n, "tmp_obj_"),
			strings.HasPrefix(n, ".wikid-") && strings.HasSuffix(n, ".tmp"),
			!d.IsDir() && filepath.Dir(rel) == filepath.Join(".git", "wikid", "txn"):
			out = append(out, rel)
		}
		return nil
	})
	return out
}

// TestServe_CrashRecovery kills `wikid serve` with SIGKILL at random
// moments of a stream of writes, edits, moves and deletes, and starts it
// again each time. After every restart the first mutation must succeed
// within 5s, and then every acknowledged commit must be in the branch's
// history, git fsck --strict and git status must be clean, and no lock,
// temporary file or journal may be left. It runs for 90s, or 100
// acknowledged mutations at least, under CI=true, and for 15s otherwise.
// Last, a .git/index.lock made by another process must give LOCKED at once
// and be left in place.
func TestServe_CrashRecovery(t *testing.T) {
	t.Parallel()
	// A few kills with -short, the full campaign without.
	budget, minMutations := 90*time.Second, 100
	if testing.Short() {
		budget, minMutations = 5*time.Second, 5
	}
	dir := fixtureRepo(t)
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	w := &crashWorkload{rnd: rand.New(rand.NewPCG(uint64(seed), 1))}
	var acked []string
	var recoveries []time.Duration
	var bound time.Duration
	kills := 0
	landed := map[string]int{}
	start := time.Now()
	for time.Since(start) < budget || len(acked) < minMutations {
		if time.Since(start) > 3*budget {
			t.Fatalf("only %d mutations acknowledged in %s", len(acked), time.Since(start))
		}
		w.notes = notesAt(t, dir)
		t0 := time.Now()
		p := startRPC(t, dir)
		tool, args := w.next()
		res, err := p.tool(tool, args)
		took := time.Since(t0)
		if err != nil || res.IsError || res.Structured.Commit == "" {
			p.cmd.Process.Kill()
			p.cmd.Wait()
			t.Fatalf("first mutation after restart %d: %s %v: %v %+v\n%s", kills, tool, args, err, res, p.stderr)
		}
		// The first start, before any crash, is the pace of this machine
		// now: recovering may take five times as long, and 5 s at least.
		if len(recoveries) == 0 {
			bound = max(5*time.Second, 5*took)
		}
		if took > bound {
			t.Errorf("restart %d: the first mutation succeeded after %s", kills, took)
		}
		recoveries = append(recoveries, took)
		acked = append(acked, res.Structured.Commit)
		w.applied(tool, args)
		checkAfterRecovery(t, dir, acked)
		if t.Failed() {
			p.cmd.Process.Kill()
			p.cmd.Wait()
			t.Fatalf("after restart %d:\n%s", kills, p.stderr)
		}

		delay := time.Duration(w.rnd.IntN(300)) * time.Millisecond
		killed := make(chan struct{})
		go func() {
			time.Sleep(delay)
			p.cmd.Process.Signal(syscall.SIGKILL)
			close(killed)
		}()
		for {
			tool, args := w.next()
			res, err := p.tool(tool, args)
			if err != nil {
				break // killed
			}
			if res.IsError {
				<-killed
				p.cmd.Wait()
				t.Fatalf("%s %v: %s\n%s", tool, args, res.text(), p.stderr)
			}
			acked = append(acked, res.Structured.Commit)
			w.applied(tool, args)
		}
		<-killed
		p.cmd.Wait()
		p.in.Close()
		kills++
		left := crashLeftovers(t, dir)
		switch {
		case slices.Contains(left, filepath.Join(".git", "refs", "heads", "main.lock")):
			landed["ref lock left"]++
		case slices.Contains(left, filepath.Join(".git", "index.lock")):
			landed["index lock left"]++
		case len(left) > 0:
			landed["journal or temporary files only"]++
		default:
			landed["between commits"]++
		}
	}
	sort.Slice(recoveries, func(i, j int) bool { return recoveries[i] < recoveries[j] })
	t.Logf("%d kills, %d acknowledged mutations in %s; where the kills landed: %v; restart to first acknowledged mutation: median %s, max %s",
		kills, len(acked), time.Since(start).Round(time.Millisecond), landed,
		recoveries[len(recoveries)/2].Round(time.Millisecond), recoveries[len(recoveries)-1].Round(time.Millisecond))

	// Someone else's lock: LOCKED at once, left in place, and shown by
	// wiki_status.
	p := startRPC(t, dir)
	defer func() {
		p.in.Close()
		p.cmd.Wait()
	}()
	lock := checkForeignLock(t, p, dir)
	if _, err := os.Stat(lock); err != nil {
		t.Errorf("the foreign lock is gone: %v", err)
	}
	st, err := p.tool("wiki_status", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(st.Structured.Blocked, lock) || !strings.Contains(st.text(), "Blocked: ") {
		t.Errorf("wiki_status with a foreign lock: blocked %q\n%s", st.Structured.Blocked, st.text())
	}
}

// checkAfterRecovery checks the repository after a restart: every
// acknowledged commit in the history, fsck and status clean, nothing left.
func checkAfterRecovery(tb testing.TB, dir string, acked []string) {
	tb.Helper()
	history := make(map[string]bool)
	for _, c := range strings.Fields(gittest.Git(tb, dir, "rev-list", "HEAD")) {
		history[c] = true
	}
	for _, c := range acked {
		if !history[c] {
			tb.Errorf("acknowledged commit %s is not in the history", c)
		}
	}
	// Commits that never landed are dangling, as git's own are after a
	// failed commit; anything else fsck says is a fault.
	if out, err := gittest.TryGit(dir, "fsck", "--strict", "--no-progress", "--no-dangling"); err != nil || out != "" {
		tb.Errorf("git fsck --strict: %v\n%s", err, out)
	}
	if st := gittest.Status(tb, dir); st != "" {
		tb.Errorf("git status --porcelain:\n%s", st)
	}
	// A landed commit removes the index it replaced, then its journal,
	// after it is acknowledged: give the running daemon a moment.
	left := crashLeftovers(tb, dir)
	for deadline := time.Now().Add(5 * time.Second); len(left) > 0 && time.Now().Before(deadline); left = crashLeftovers(tb, dir) {
		time.Sleep(20 * time.Millisecond)
	}
	if len(left) > 0 {
		tb.Errorf("left behind: %v", left)
	}
}

// checkForeignLock writes a note through p, then puts someone else's
// .git/index.lock in dir and checks that the next write fails with LOCKED
// naming it, at once: within five times what the first write took here
// and now, and a second at least. It returns the lock's path, left in
// place.
func checkForeignLock(t *testing.T, p *rpcServe, dir string) string {
	t.Helper()
	t0 := time.Now()
	if res, err := p.tool("write_note", map[string]any{"path": "crash/before-lock", "content": "x\n"}); err != nil || res.IsError {
		t.Fatalf("write before the lock: %v %v", err, res)
	}
	budget := max(time.Second, 5*time.Since(t0))
	lock := filepath.Join(dir, ".git", "index.lock")
	if err := os.WriteFile(lock, []byte("a git command's index\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	t0 = time.Now()
	res, err := p.tool("write_note", map[string]any{"path": "crash/after-lock", "content": "x\n"})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(t0); !res.IsError || !strings.HasPrefix(res.text(), "LOCKED: ") || !strings.Contains(res.text(), lock) || took > budget {
		t.Errorf("write with a foreign index.lock, after %s (budget %s): %s", took, budget, res.text())
	}
	return lock
}
