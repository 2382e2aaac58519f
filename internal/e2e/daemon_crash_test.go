package e2e_test

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// daemonPID returns the pid of dir's daemon.
func daemonPID(tb testing.TB, env []string, dir string) int {
	tb.Helper()
	cmd := exec.Command(wikidBin, "daemon", "status", "--json", "--repo", dir)
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("wikid daemon status: %v", err)
	}
	var st struct {
		PID int `json:"pid"`
	}
	if err := json.Unmarshal(out, &st); err != nil {
		tb.Fatal(err)
	}
	return st.PID
}

// TestDaemon_CrashRecovery is the crash campaign through the daemon: one
// client writes, edits, moves and deletes through its `wikid serve`
// bridge while the test kills the daemon with SIGKILL at random moments.
// The bridge starts a new daemon each time, which recovers what the
// killed one left; the first mutation after each kill must succeed within
// 5 s, every acknowledged commit must be in the history, git fsck --strict
// and git status must be clean, and nothing may be left behind. It runs
// for 60 s and 100 acknowledged mutations at least under CI=true, 10 s
// otherwise. Last, a .git/index.lock made by another process gives LOCKED
// at once and is left in place.
func TestDaemon_CrashRecovery(t *testing.T) {
	t.Parallel()
	// A few kills with -short, the full campaign without.
	budget, minMutations := 60*time.Second, 100
	if testing.Short() {
		budget, minMutations = 5*time.Second, 5
	}
	dir := fixtureRepo(t)
	env := sharedEnv(t, dir)
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	w := &crashWorkload{rnd: rand.New(rand.NewPCG(uint64(seed), 2))}
	p := startRPCEnv(t, dir, env)
	defer func() {
		p.in.Close()
		p.cmd.Wait()
	}()
	var acked []string
	var recoveries []time.Duration
	var bound time.Duration
	kills, lost := 0, 0
	start := time.Now()
	for time.Since(start) < budget || len(acked) < minMutations {
		if time.Since(start) > 3*budget+time.Minute {
			t.Fatalf("only %d mutations acknowledged in %s", len(acked), time.Since(start))
		}
		// The first mutation after a kill reaches a new daemon, through
		// the same bridge and session.
		// A mutation sent as the killed daemon's socket closes may reach
		// it still and be answered as lost, as a client would see it: the
		// client tries again.
		w.notes = notesAt(t, dir)
		t0 := time.Now()
		tool, args := w.next()
		res, err := p.tool(tool, args)
		for err != nil && strings.Contains(err.Error(), "went away") && time.Since(t0) < 5*time.Second {
			lost++
			w.notes = notesAt(t, dir)
			tool, args = w.next()
			res, err = p.tool(tool, args)
		}
		took := time.Since(t0)
		if err != nil || res.IsError || res.Structured.Commit == "" {
			t.Fatalf("first mutation after kill %d: %s %v: %v %+v\n%s", kills, tool, args, err, res, p.stderr)
		}
		// The first start, before any crash, is the pace of this machine
		// now: recovering may take five times as long, and 5 s at least.
		if len(recoveries) == 0 {
			bound = max(5*time.Second, 5*took)
		}
		if took > bound {
			t.Errorf("kill %d: the first mutation succeeded after %s", kills, took)
		}
		recoveries = append(recoveries, took)
		acked = append(acked, res.Structured.Commit)
		w.applied(tool, args)
		checkAfterRecovery(t, dir, acked)
		if t.Failed() {
			t.Fatalf("after kill %d:\n%s", kills, p.stderr)
		}

		pid := daemonPID(t, env, dir)
		delay := time.Duration(w.rnd.IntN(300)) * time.Millisecond
		killed := make(chan struct{})
		go func() {
			time.Sleep(delay)
			if p, err := os.FindProcess(pid); err == nil {
				_ = p.Kill() // SIGKILL on unix
			}
			close(killed)
		}()
		for {
			tool, args := w.next()
			res, err := p.tool(tool, args)
			if err != nil {
				// The bridge answered for the daemon that went away: the
				// change was made as a whole or not at all.
				if !strings.Contains(err.Error(), "went away") {
					t.Fatalf("%s %v: %v\n%s", tool, args, err, p.stderr)
				}
				lost++
				break
			}
			if res.IsError {
				select {
				case <-killed:
					// A call sent again to the new daemon may find the
					// note changed by the lost one; start the next round.
				default:
					t.Fatalf("%s %v: %s\n%s", tool, args, res.text(), p.stderr)
				}
				break
			}
			acked = append(acked, res.Structured.Commit)
			w.applied(tool, args)
			select {
			case <-killed:
			default:
				continue
			}
			break
		}
		<-killed
		kills++
	}
	sort.Slice(recoveries, func(i, j int) bool { return recoveries[i] < recoveries[j] })
	t.Logf("%d daemon kills, %d acknowledged mutations, %d answered as lost, in %s; kill to first acknowledged mutation: median %s, max %s",
		kills, len(acked), lost, time.Since(start).Round(time.Millisecond),
		recoveries[len(recoveries)/2].Round(time.Millisecond), recoveries[len(recoveries)-1].Round(time.Millisecond))

	// A foreign lock is refused at once, not waited for.
	lock := checkForeignLock(t, p, dir)
	if _, err := os.Stat(lock); err != nil {
		t.Errorf("the foreign lock is gone: %v", err)
	}
	if !slices.Contains(crashLeftovers(t, dir), filepath.Join(".git", "index.lock")) {
		t.Errorf("the foreign lock is not where it was")
	}
	os.Remove(lock)
}
