package daemon

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/procid"
)

// TestDiscover runs a daemon with one runtime folder and reaches it from
// another: the repository's record names its socket, the lock is the
// repository's, and the record goes when the daemon stops.
func TestDiscover(t *testing.T) {
	w, dir := testWiki(t)
	a, b := testEndpoint(t, dir), testEndpoint(t, dir)
	if a.Socket == b.Socket || a.Lock != b.Lock || a.Record == "" || a.Record != b.Record {
		t.Fatalf("endpoints of two runtime folders: %+v, %+v", a, b)
	}
	ctx := context.Background()
	stop, done := serve(t, Options{Endpoint: a, Wiki: w})
	for _, name := range []string{a.Record, filepath.Dir(a.Record)} {
		st, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		want := os.FileMode(0o600)
		if st.IsDir() {
			want = 0o700
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", name, st.Mode().Perm(), want)
		}
	}
	if got := Discover(b); got.Socket != a.Socket || got.Log != a.Log {
		t.Errorf("Discover from another runtime folder: %+v, want the socket %s", got, a.Socket)
	}
	st, err := GetStatus(ctx, b)
	if err != nil || st.PID != os.Getpid() || st.Socket != a.Socket {
		t.Fatalf("GetStatus from another runtime folder: %+v, %v", st, err)
	}
	if _, err := Acquire(b); !errors.Is(err, ErrRunning) {
		t.Errorf("a second daemon from another runtime folder: Acquire = %v, want ErrRunning", err)
	}
	stop()
	<-done
	if _, err := os.Stat(a.Record); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the record after the daemon stopped: %v", err)
	}
	if _, err := GetStatus(ctx, b); !errors.Is(err, ErrNotRunning) {
		t.Errorf("GetStatus after the daemon stopped: %v, want ErrNotRunning", err)
	}
}

// TestDiscover_ignored writes records that must not be followed: one of a
// process that is gone, of another host, open to others, or not one.
func TestDiscover_ignored(t *testing.T) {
	_, dir := testWiki(t)
	e := testEndpoint(t, dir)
	self := procid.Self()
	gone := procid.ID{PID: self.PID, Start: self.Start + 1}
	if self.Start == 0 {
		t.Skip("this system does not tell a process's start time")
	}
	for _, tc := range []struct {
		name string
		rec  Record
		mode os.FileMode
		raw  string
	}{
		{name: "dead process", rec: Record{Socket: "/elsewhere.sock", Process: gone.String(), Host: procid.Host()}, mode: 0o600},
		{name: "another host", rec: Record{Socket: "/elsewhere.sock", Process: self.String(), Host: "elsewhere"}, mode: 0o600},
		{name: "open to others", rec: Record{Socket: "/elsewhere.sock", Process: self.String(), Host: procid.Host()}, mode: 0o644},
		{name: "not a record", raw: "{", mode: 0o600},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.raw == "" {
				if err := writeRecord(e, tc.rec); err != nil {
					t.Fatal(err)
				}
			} else if err := os.WriteFile(e.Record, []byte(tc.raw), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(e.Record, tc.mode); err != nil {
				t.Fatal(err)
			}
			if got := Discover(e); got != e {
				t.Errorf("Discover followed the record: %+v", got)
			}
		})
	}
	t.Run("live", func(t *testing.T) {
		r := Record{Socket: "/elsewhere.sock", Log: "/elsewhere.log", Process: self.String(), Host: procid.Host()}
		if err := writeRecord(e, r); err != nil {
			t.Fatal(err)
		}
		if got := Discover(e); got.Socket != r.Socket || got.Log != r.Log {
			t.Errorf("Discover = %+v, want the recorded socket", got)
		}
		removeRecord(e)
		if _, err := os.Stat(e.Record); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("removeRecord left this process's record: %v", err)
		}
	})
}

// TestEndpointFor_unwritableRepository keeps the lock beside the socket,
// without a record, when the repository has no room for the daemon folder.
func TestEndpointFor_unwritableRepository(t *testing.T) {
	gitDir := filepath.Join(t.TempDir(), "not-a-folder")
	if err := os.WriteFile(gitDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	rt := t.TempDir()
	e, err := EndpointFor(rt, gitDir)
	if err != nil {
		t.Fatal(err)
	}
	if e.Record != "" || filepath.Dir(e.Lock) != rt {
		t.Errorf("EndpointFor = %+v, want the lock in %s and no record", e, rt)
	}
}

// TestDaemon_recordRestored removes the repository's daemon folder under a
// running daemon: the daemon takes its lock again and writes its record
// again, so that a client of another runtime folder still finds it and a
// second daemon is still refused.
func TestDaemon_recordRestored(t *testing.T) {
	w, dir := testWiki(t)
	a, b := testEndpoint(t, dir), testEndpoint(t, dir)
	serve(t, Options{Endpoint: a, Wiki: w})
	if err := os.RemoveAll(filepath.Dir(a.Record)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3 * recordInterval)
	for Discover(b).Socket != a.Socket {
		if time.Now().After(deadline) {
			t.Fatal("the record was not written again")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := Acquire(b); !errors.Is(err, ErrRunning) {
		t.Errorf("a second daemon after the folder was removed: Acquire = %v, want ErrRunning", err)
	}
}
