package e2e_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
)

// TestDaemon_BridgeSurvivesKillsDuringStart kills the daemon under a
// `wikid serve` bridge, then nine daemons in a row that the bridge starts,
// each as soon as it takes the repository's daemon lock, while it opens
// the repository: ten deaths in a row. The read the client sent meanwhile
// is answered, by the daemon that is left to start, and the session goes
// on.
func TestDaemon_BridgeSurvivesKillsDuringStart(t *testing.T) {
	// Alone: beside four parallel tests its write after the kills was once
	// answered "the daemon went away during this request".
	dir := t.TempDir()
	gittest.Generate(t, dir, 20, 5)
	env := sharedEnv(t, dir)
	p := startRPCEnv(t, dir, env)
	defer func() {
		p.in.Close()
		p.cmd.Wait()
	}()
	if _, err := p.call("tools/list", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if res, err := p.tool("write_note", map[string]any{"path": "survive/a", "content": "# a\n"}); err != nil || res.IsError {
		t.Fatalf("write_note: %v %+v", err, res)
	}
	pidFile := filepath.Join(dir, ".git", "wikid", "daemon", "daemon.pid")
	killed := map[int]bool{}
	kill := func(pid int) {
		t.Helper()
		if err := signalPID(pid, syscall.SIGKILL); err != nil {
			t.Fatalf("kill %d: %v", pid, err)
		}
		killed[pid] = true
	}
	kill(daemonPID(t, env, dir))
	read := make(chan *toolResult, 1)
	go func() {
		res, err := p.tool("read_note", map[string]any{"path": "survive/a"})
		if err != nil {
			t.Errorf("read_note: %v", err)
		}
		read <- res
	}()
	for len(killed) < 10 {
		// The next daemon, as soon as its pid is in the lock file.
		deadline := time.Now().Add(time.Minute)
		for {
			b, _ := os.ReadFile(pidFile)
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 && !killed[pid] {
				kill(pid)
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("after %d kills, no new daemon took the lock within a minute\n%s", len(killed), p.stderr)
			}
			select {
			case res := <-read:
				t.Fatalf("after %d kills the read was answered before the next daemon started: %+v\n%s", len(killed), res, p.stderr)
			default:
			}
			time.Sleep(time.Millisecond)
		}
	}
	select {
	case res := <-read:
		if res == nil || res.IsError || !strings.Contains(res.text(), "# a") {
			t.Fatalf("read_note after %d kills: %+v\n%s", len(killed), res, p.stderr)
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("read_note unanswered after %d kills\n%s", len(killed), p.stderr)
	}
	if res, err := p.tool("write_note", map[string]any{"path": "survive/b", "content": "# b\n"}); err != nil || res.IsError {
		t.Fatalf("write_note after the kills: %v %+v\n%s", err, res, p.stderr)
	}
	if got := gittest.Git(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("git status:\n%s", got)
	}
	gittest.Git(t, dir, "fsck", "--strict", "--no-dangling")
}
