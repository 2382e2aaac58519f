package e2e_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/daemon"
	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
)

// deadPID is a pid no process can have: Linux pids stop at 2^22.
const deadPID = 1<<22 + 1

// plantCrashJournal leaves in dir the journal of a commit whose process
// died before it took a lock, as a SIGKILL leaves it. Whoever opens the
// repository for writing rolls it back, which removes the file: a process
// that never opened the repository leaves it where it is. It returns the
// journal's file.
func plantCrashJournal(tb testing.TB, dir string) string {
	tb.Helper()
	txn := filepath.Join(dir, ".git", "wikid", "txn")
	if err := os.MkdirAll(txn, 0o755); err != nil {
		tb.Fatal(err)
	}
	name := filepath.Join(txn, fmt.Sprintf("%d-1-0011223344556677.json", deadPID))
	if err := os.WriteFile(name, []byte("{}"), 0o644); err != nil {
		tb.Fatal(err)
	}
	return name
}

// endpointOf is the daemon endpoint of dir in the runtime folder env names.
func endpointOf(tb testing.TB, env []string, dir string) daemon.Endpoint {
	tb.Helper()
	var rt string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "WIKID_RUNTIME_DIR="); ok {
			rt = v
		}
	}
	gitDir, err := gitstore.Locate(dir)
	if err != nil {
		tb.Fatal(err)
	}
	ep, err := daemon.EndpointFor(rt, gitDir)
	if err != nil {
		tb.Fatal(err)
	}
	return ep
}

// TestDaemon_SecondDaemonRefusedAtOnce runs `wikid serve --http` and
// `wikid daemon start --foreground` beside a running daemon: each fails at
// once with an error naming the daemon's pid, having opened nothing (a
// crashed commit's journal left for recovery stays where it is, until the
// daemon itself rolls it back at its next commit).
func TestDaemon_SecondDaemonRefusedAtOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gittest.Generate(t, dir, 20, 5)
	env := sharedEnv(t, dir)
	wikidCLI(t, env, "", "daemon", "start", "--repo", dir)
	pid := daemonPID(t, env, dir)
	journal := plantCrashJournal(t, dir)

	for _, args := range [][]string{
		{"serve", "--http", "127.0.0.1:0", "--repo", dir},
		{"daemon", "start", "--foreground", "--repo", dir},
	} {
		name := "wikid " + strings.Join(args[:2], " ")
		cmd := exec.Command(wikidBin, args...)
		cmd.Env = env
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		// Generous: it exits in tens of milliseconds; waiting for the
		// search index the daemon holds took 20 s.
		select {
		case err := <-exited:
			if err == nil {
				t.Errorf("%s beside a running daemon exited with status 0:\n%s", name, out.String())
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
			t.Errorf("%s beside a running daemon still ran after 10 s:\n%s", name, out.String())
		}
		if msg := out.String(); !strings.Contains(msg, "already serves this repository") || !strings.Contains(msg, fmt.Sprintf("pid %d", pid)) {
			t.Errorf("%s does not name the running daemon (pid %d):\n%s", name, pid, msg)
		}
		if _, err := os.Stat(journal); err != nil {
			t.Errorf("%s rolled back a crashed commit, so it opened the repository: %v", name, err)
		}
	}
	if now := daemonPID(t, env, dir); now != pid {
		t.Errorf("the daemon is pid %d, want %d still", now, pid)
	}
	// The daemon rolls the crashed commit back when it commits.
	wikidCLI(t, env, "# after\n", "write", "after", "--repo", dir, "--author", "Person <person@example.com>")
	if _, err := os.Stat(journal); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the daemon's commit left the crashed commit's journal: %v", err)
	}
}

// TestDaemon_LosingCandidateOpensNothing starts a stdio bridge while the
// daemon lock is held by a daemon that does not answer yet (the test holds
// it, as a daemon does while it opens the repository). The daemon the
// bridge starts finds the lock held and exits at once, having opened
// nothing: a crashed commit's journal stays where it is, and `wikid daemon
// status` reports the holder as starting. Once the holder lets go of the
// lock without ever answering, the bridge starts another daemon, which
// rolls the journal back and answers the client's first tools/list.
func TestDaemon_LosingCandidateOpensNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gittest.Generate(t, dir, 20, 5)
	env := sharedEnv(t, dir)
	ep := endpointOf(t, env, dir)
	lock, err := daemon.Acquire(ep)
	if err != nil {
		t.Fatal(err)
	}
	released := false
	defer func() {
		if !released {
			lock.Release()
		}
	}()
	journal := plantCrashJournal(t, dir)

	cmd := exec.Command(wikidBin, "serve", "--repo", dir)
	cmd.Env = env
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		in.Close()
		cmd.Wait()
		if t.Failed() {
			t.Logf("wikid serve standard error:\n%s", stderr)
		}
	}()
	for _, m := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"early","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
	} {
		if _, err := in.Write([]byte(m + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	listed := make(chan error, 1)
	go func() {
		r := bufio.NewReader(out)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				listed <- fmt.Errorf("wikid serve ended before answering tools/list: %w", err)
				return
			}
			var m struct {
				ID     int             `json:"id"`
				Result json.RawMessage `json:"result"`
			}
			if json.Unmarshal(line, &m) == nil && m.ID == 2 {
				if !strings.Contains(string(m.Result), `"write_note"`) {
					err = fmt.Errorf("tools/list answered %.300s", line)
				}
				listed <- err
				return
			}
		}
	}()

	// The bridge's daemon says in the log that another holds the lock.
	logText := func() string {
		b, _ := os.ReadFile(ep.Log)
		return string(b)
	}
	const lost = "already serves this repository"
	for deadline := time.Now().Add(60 * time.Second); !strings.Contains(logText(), lost); {
		if time.Now().After(deadline) {
			t.Fatalf("the daemon the bridge started never said that another holds the lock; log:\n%s", logText())
		}
		select {
		case err := <-listed:
			t.Fatalf("the bridge answered while the lock was held: %v", err)
		case <-time.After(20 * time.Millisecond):
		}
	}
	if _, err := os.Stat(journal); err != nil {
		t.Fatalf("the daemon that lost the lock rolled back a crashed commit, so it opened the repository: %v\nlog:\n%s", err, logText())
	}
	var st struct {
		PID      int  `json:"pid"`
		Starting bool `json:"starting"`
	}
	if err := json.Unmarshal([]byte(wikidCLI(t, env, "", "daemon", "status", "--json", "--repo", dir)), &st); err != nil {
		t.Fatal(err)
	}
	if !st.Starting || st.PID != os.Getpid() {
		t.Errorf("daemon status while the lock's holder does not answer: %+v, want pid %d starting", st, os.Getpid())
	}

	lock.Release()
	released = true
	select {
	case err := <-listed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("no answer to tools/list 60 s after the lock was let go of")
	}
	if _, err := os.Stat(journal); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the daemon left the crashed commit's journal: %v", err)
	}
	log := logText()
	if n := strings.Count(log, "rolling back the commit of a wikid process that is gone"); n != 1 ||
		strings.Index(log, "rolling back") < strings.Index(log, lost) {
		t.Errorf("want one rollback, after the losing daemon's exit; log:\n%s", log)
	}
	if pid := daemonPID(t, env, dir); pid == os.Getpid() || pid == 0 {
		t.Errorf("daemon status names pid %d, want the daemon the bridge started", pid)
	}
	if msg := stderr.String(); strings.Contains(msg, "serving in this process") {
		t.Errorf("the bridge served in its own process:\n%s", msg)
	}
}
