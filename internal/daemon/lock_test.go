package daemon

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
)

func TestHolder(t *testing.T) {
	e := testEndpoint(t, gittest.Init(t))
	if pid, held := Holder(e); held || pid != 0 {
		t.Fatalf("no lock file yet: Holder = %d, %v", pid, held)
	}
	lock, err := Acquire(e)
	if err != nil {
		t.Fatal(err)
	}
	if pid, held := Holder(e); !held || pid != os.Getpid() {
		t.Errorf("a held lock: Holder = %d, %v, want %d, true", pid, held, os.Getpid())
	}
	lock.Release()
	if _, held := Holder(e); held {
		t.Error("a released lock is still held")
	}
	again, err := Acquire(e)
	if err != nil {
		t.Fatalf("the lock after its release: %v", err)
	}
	again.Release()
}

// TestLookup_starting holds the daemon lock without serving, as a daemon
// does while it opens the repository: GetStatus finds nobody, Lookup
// reports it as starting, with its pid.
func TestLookup_starting(t *testing.T) {
	e := testEndpoint(t, gittest.Init(t))
	ctx := context.Background()
	if _, err := Lookup(ctx, e); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("Lookup with no daemon: %v, want ErrNotRunning", err)
	}
	lock, err := Acquire(e)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	if _, err := GetStatus(ctx, e); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("GetStatus of a daemon that does not listen yet: %v", err)
	}
	st, err := Lookup(ctx, e)
	if err != nil || !st.Starting || st.PID != os.Getpid() || st.Socket != e.Socket || st.Log != e.Log {
		t.Errorf("Lookup of a starting daemon: %+v, %v", st, err)
	}
}

// TestStop_startingDaemon asks a daemon to stop while it holds the lock
// but does not listen yet: Stop waits for it to answer, stops it, and
// returns once it has let go of the lock.
func TestStop_startingDaemon(t *testing.T) {
	w, dir := testWiki(t)
	e := testEndpoint(t, dir)
	lock, err := Acquire(e)
	if err != nil {
		t.Fatal(err)
	}
	stopped := make(chan error, 1)
	go func() { stopped <- Stop(context.Background(), e) }()
	_, done := serve(t, Options{Endpoint: e, Wiki: w, Lock: lock})
	select {
	case err := <-stopped:
		if err != nil {
			t.Fatalf("Stop: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Stop did not return")
	}
	select {
	case <-done:
	default:
		t.Error("Stop returned before the daemon did")
	}
	if _, held := Holder(e); held {
		t.Error("the lock is held after Stop returned")
	}
}

// spawnScript writes a shell script that appends a line to a count file
// each time it runs, then runs body; it returns the script and the count
// file.
func spawnScript(tb testing.TB, body string) (script, count string) {
	tb.Helper()
	dir := tb.TempDir()
	count = filepath.Join(dir, "count")
	script = filepath.Join(dir, "candidate.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho run >> "+count+"\n"+body+"\n"), 0o755); err != nil {
		tb.Fatal(err)
	}
	return script, count
}

func runs(tb testing.TB, count string) int {
	tb.Helper()
	b, err := os.ReadFile(count)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		tb.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}

func TestSpawn(t *testing.T) {
	ctx := context.Background()
	t.Run("a candidate that finds the lock held waits for its holder", func(t *testing.T) {
		w, dir := testWiki(t)
		e := testEndpoint(t, dir)
		lock, err := Acquire(e) // a daemon opening the repository
		if err != nil {
			t.Fatal(err)
		}
		script, count := spawnScript(t, "exit 0")
		spawned := make(chan error, 1)
		go func() { spawned <- Spawn(ctx, e, script, nil, nil, 30*time.Second) }()
		for runs(t, count) == 0 {
			select {
			case err := <-spawned:
				t.Fatalf("Spawn returned before the holder answered: %v", err)
			case <-time.After(10 * time.Millisecond):
			}
		}
		serve(t, Options{Endpoint: e, Wiki: w, Lock: lock})
		if err := <-spawned; err != nil {
			t.Fatalf("Spawn: %v", err)
		}
		if n := runs(t, count); n != 1 {
			t.Errorf("the candidate ran %d times while the lock was held, want once", n)
		}
	})
	t.Run("a lock let go of without an answer starts another, a few times", func(t *testing.T) {
		e := testEndpoint(t, gittest.Init(t))
		script, count := spawnScript(t, "exit 0")
		err := Spawn(ctx, e, script, nil, nil, 30*time.Second)
		if err == nil || !strings.Contains(err.Error(), "in a row") {
			t.Fatalf("Spawn of candidates that never serve: %v", err)
		}
		if n := runs(t, count); n != maxSpawns {
			t.Errorf("%d candidates started, want %d", n, maxSpawns)
		}
	})
	t.Run("a candidate that fails is reported with its log", func(t *testing.T) {
		e := testEndpoint(t, gittest.Init(t))
		script, count := spawnScript(t, "echo 'cannot open the repository' >&2; exit 1")
		err := Spawn(ctx, e, script, nil, nil, 30*time.Second)
		if err == nil || !strings.Contains(err.Error(), "cannot open the repository") {
			t.Fatalf("Spawn of a failing candidate: %v", err)
		}
		if n := runs(t, count); n != 1 {
			t.Errorf("a failing candidate ran %d times, want once", n)
		}
	})
}

func TestRuntimeDirFor(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	xdg := t.TempDir()
	for _, tc := range []struct {
		name, goos string
		getenv     func(string) string
		tmp, want  string
	}{
		{"windows", "windows", env("LOCALAPPDATA", `C:\Users\Ann\AppData\Local`), `C:\Users\Ann\AppData\Local\Temp`, `C:\Users\Ann\AppData\Local\wikid\run`},
		{"windows trailing separator", "windows", env("LOCALAPPDATA", `D:\Profiles\ann\`), `C:\Temp`, `D:\Profiles\ann\wikid\run`},
		{"windows without LOCALAPPDATA", "windows", env("XDG_RUNTIME_DIR", xdg), `C:\Users\Ann\AppData\Local\Temp`, `C:\Users\Ann\AppData\Local\Temp\wikid\run`},
		{"linux with XDG_RUNTIME_DIR", "linux", env("XDG_RUNTIME_DIR", xdg), "/tmp", filepath.Join(xdg, "wikid")},
		{"linux with a missing XDG_RUNTIME_DIR", "linux", env("XDG_RUNTIME_DIR", filepath.Join(xdg, "gone")), "/tmp", filepath.FromSlash("/tmp/wikid-1000")},
		{"darwin", "darwin", env(), "/var/folders/x/T", filepath.FromSlash("/var/folders/x/T/wikid-1000")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := runtimeDirFor(tc.goos, tc.getenv, tc.tmp, 1000, isDir); got != tc.want {
				t.Errorf("runtimeDirFor = %s, want %s", got, tc.want)
			}
		})
	}
}
