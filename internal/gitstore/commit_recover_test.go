package gitstore

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gitstore/internal/journal"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/procid"
	"github.com/wikid/wikid/internal/wiki"
)

// crashPoints are the places of Commit where TestStore_Open_Recovers kills
// the committing process, in the order Commit passes them; "objects
// written" comes anywhere from "index locked" to "index written", as the
// objects are written while the files are put in place.
var crashPoints = []string{
	"journaled", "index locked", "objects written", "files staged", "moved aside", "swapped in", "files in place",
	"index written", "ref locked", "ref moved",
}

var (
	crashSeed = map[string]string{"a.md": "alpha\n", "dir/b.md": "b\n", "keep/k.md": "k\n"}
	crashEdit = map[string]string{"a.md": "alpha 2\n", "dir/b.md": "", "new/deep/n.md": "n\n"}
)

// TestCrashChild is not a test: run by crashCommit in a child process, it
// commits crashEdit to the repository in $WIKID_CRASH_DIR and kills itself
// with SIGKILL at the point $WIKID_CRASH_POINT of Commit.
func TestCrashChild(t *testing.T) {
	dir, point := os.Getenv("WIKID_CRASH_DIR"), os.Getenv("WIKID_CRASH_POINT")
	if dir == "" {
		t.Skip("run by crashCommit only")
	}
	s, err := Open(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	testHookCrash = func(p string) {
		if p == point {
			if p, err := os.FindProcess(os.Getpid()); err == nil {
				_ = p.Kill() // SIGKILL on unix
			}
			time.Sleep(time.Minute)
		}
	}
	head, err := s.Head(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	edit := crashEdit
	if head.Commit == "" {
		edit = map[string]string{"a.md": "alpha 2\n", "new/deep/n.md": "n\n"}
	}
	if _, err := s.Commit(context.Background(), request(head.Commit, "crash", edit)); err != nil {
		t.Fatal(err)
	}
}

// crashCommit commits crashEdit in a child process killed at point, and
// fails the test unless the child died by SIGKILL.
func crashCommit(tb testing.TB, dir, point string) {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "WIKID_CRASH_DIR="+dir, "WIKID_CRASH_POINT="+point)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		tb.Fatalf("the child was not killed at %q: %v\n%s", point, err, out)
	}
	if st, ok := exit.Sys().(syscall.WaitStatus); !ok || !st.Signaled() || st.Signal() != syscall.SIGKILL {
		tb.Fatalf("the child was not killed at %q: %v\n%s", point, err, out)
	}
}

// leftovers lists the lock files, temporary files and journals in a
// repository, relative to dir.
func leftovers(tb testing.TB, dir string) []string {
	tb.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		n := d.Name()
		if strings.HasSuffix(n, ".lock") || strings.HasPrefix(n, "tmp_obj_") ||
			(strings.HasPrefix(n, ".wikid-") && (strings.HasSuffix(n, ".tmp") || strings.HasSuffix(n, ".aside"))) ||
			(!d.IsDir() && filepath.Base(filepath.Dir(p)) == "txn") {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// TestStore_Open_Recovers kills a committing process at each point of
// Commit; opening the store again must leave the checkout clean (fsck,
// status, index), HEAD at the old commit or, once the branch moved, at the
// new one with its files, no lock, temporary file or journal behind, and
// the next commit must succeed.
func TestStore_Open_Recovers(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("tells a dead process from a live one by /proc")
	}
	ctx := context.Background()
	for _, point := range crashPoints {
		t.Run(point, func(t *testing.T) {
			dir := seeded(t, crashSeed)
			old := rev(t, dir, "HEAD")
			crashCommit(t, dir, point)
			left := leftovers(t, dir)
			if len(left) == 0 {
				t.Errorf("the crash at %q left nothing to recover", point)
			}
			start := time.Now()
			s := openStore(t, dir)
			t.Logf("left %v; Open recovered in %s", left, time.Since(start))
			if l := leftovers(t, dir); len(l) > 0 {
				t.Errorf("after Open: %v", l)
			}
			checkCheckout(t, dir)
			head := rev(t, dir, "HEAD")
			switch {
			case point == "ref moved":
				if head == old {
					t.Fatal("HEAD is still at the old commit")
				}
				checkDisk(t, dir, crashEdit)
			case head != old:
				t.Fatalf("HEAD moved to %s", head)
			default:
				checkDisk(t, dir, crashSeed)
				if _, err := os.Stat(filepath.Join(dir, "new")); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("the folder made for the new file is still there: %v", err)
				}
			}
			mustCommit(t, s, request(head, "after", map[string]string{"keep/k.md": "k 2\n"}))
			checkCheckout(t, dir)
		})
	}
	t.Run("unborn checkout", func(t *testing.T) {
		dir := gittest.Init(t)
		crashCommit(t, dir, "index written")
		s := openStore(t, dir)
		if l := leftovers(t, dir); len(l) > 0 {
			t.Errorf("after Open: %v", l)
		}
		if st := gittest.Status(t, dir); st != "" {
			t.Errorf("git status --porcelain:\n%s", st)
		}
		checkDisk(t, dir, map[string]string{"a.md": "", "new/deep/n.md": ""})
		mustCommit(t, s, request("", "first", map[string]string{"a.md": "a\n"}))
		checkCheckout(t, dir)
	})
	t.Run("bare", func(t *testing.T) {
		dir := gittest.InitBare(t)
		s := openStore(t, dir)
		base := mustCommit(t, s, request("", "seed", crashSeed))
		s.Close(ctx)
		crashCommit(t, dir, "ref locked")
		if l := leftovers(t, dir); len(l) < 2 {
			t.Errorf("the crash left %v; want the ref lock and the journal", l)
		}
		s = openStore(t, dir)
		if l := leftovers(t, dir); len(l) > 0 {
			t.Errorf("after Open: %v", l)
		}
		gittest.Fsck(t, dir)
		mustCommit(t, s, request(base, "after", map[string]string{"keep/k.md": "k 2\n"}))
	})
}

// TestStore_Commit_RecoversDeadLock kills a committing process while the
// store of another process is open: that store's next commit meets the
// dead process's index lock, rolls its commit back and succeeds at once.
// The store waits for no lock at all (its waits are a nanosecond), so a
// commit that waited for the dead lock, as for a live or a foreign one,
// would fail with LOCKED instead of succeeding later.
func TestStore_Commit_RecoversDeadLock(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("tells a dead process from a live one by /proc")
	}
	dir := seeded(t, crashSeed)
	s, err := Open(context.Background(), dir, Options{LockTimeout: time.Nanosecond, ForeignLockWait: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	head := rev(t, dir, "HEAD")
	crashCommit(t, dir, "files in place")
	mustCommit(t, s, request(head, "after", map[string]string{"keep/k.md": "k 2\n"}))
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("left: %v", l)
	}
	checkCheckout(t, dir)
	checkDisk(t, dir, map[string]string{"a.md": "alpha\n", "dir/b.md": "b\n", "new/deep/n.md": "", "keep/k.md": "k 2\n"})
}

// TestStore_Open_KeepsLaterChanges: a file of the crashed commit that
// someone changed after the crash is left as it is, and so is an index
// entry someone staged.
func TestStore_Open_KeepsLaterChanges(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("tells a dead process from a live one by /proc")
	}
	dir := seeded(t, crashSeed)
	crashCommit(t, dir, "index written")
	gittest.WriteFiles(t, dir, map[string]string{"a.md": "edited by hand\n"})
	openStore(t, dir)
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("after Open: %v", l)
	}
	gittest.Fsck(t, dir)
	checkDisk(t, dir, map[string]string{"a.md": "edited by hand\n", "dir/b.md": "b\n", "new/deep/n.md": ""})
	if st := gittest.Status(t, dir); st != " M a.md\n" {
		t.Errorf("git status --porcelain:\n%s", st)
	}
}

// TestStore_Commit_ForeignLock: a lock file wikid did not take fails a
// commit with LOCKED at once, naming the file, and is left in place, by
// Open too; so is an empty one, even with a dead journal naming it.
func TestStore_Commit_ForeignLock(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, lock, content string
		crash               bool
	}{
		{"index lock", ".git/index.lock", "a git command's index\n", false},
		{"ref lock", ".git/refs/heads/main.lock", "0123456789012345678901234567890123456789\n", false},
		{"index lock after a crash before the journaled commit took it", ".git/index.lock", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.crash && runtime.GOOS != "linux" {
				t.Skip("tells a dead process from a live one by /proc")
			}
			dir := seeded(t, crashSeed)
			head := rev(t, dir, "HEAD")
			if tc.crash {
				crashCommit(t, dir, "journaled")
			}
			lock := filepath.Join(dir, filepath.FromSlash(tc.lock))
			if err := os.WriteFile(lock, []byte(tc.content), 0o666); err != nil {
				t.Fatal(err)
			}
			s := openStore(t, dir)
			start := time.Now()
			_, err := s.Commit(ctx, request(head, "edit", map[string]string{"a.md": "x\n"}))
			took := time.Since(start)
			wantCode(t, err, wiki.CodeLocked)
			if !strings.Contains(err.Error(), lock) {
				t.Errorf("error %q does not name %s", err, lock)
			}
			var e *wiki.Error
			if errors.As(err, &e) && !strings.Contains(e.Hint, "remove "+lock) {
				t.Errorf("hint %q does not say to remove the lock", e.Hint)
			}
			if took > time.Second {
				t.Errorf("LOCKED after %s", took)
			}
			if b, err := os.ReadFile(lock); err != nil || string(b) != tc.content {
				t.Errorf("the lock is not left as it was: %q, %v", b, err)
			}
			checkDisk(t, dir, crashSeed)
			if got := rev(t, dir, "HEAD"); got != head {
				t.Errorf("HEAD moved to %s", got)
			}
			if why := s.Blocked(ctx); !strings.Contains(why, lock) {
				t.Errorf("Blocked = %q, want it to name %s", why, lock)
			}
			os.Remove(lock)
			if why := s.Blocked(ctx); why != "" {
				t.Errorf("Blocked = %q after the lock was removed", why)
			}
			mustCommit(t, s, request(head, "edit", map[string]string{"a.md": "x\n"}))
			if l := leftovers(t, dir); len(l) > 0 {
				t.Errorf("left: %v", l)
			}
			checkCheckout(t, dir)
		})
	}
}

// TestStore_Open_LeavesLiveTransactions: the journal and index lock of a
// process that runs, or of one on another host (whose pid means nothing
// here), are left alone, and a commit waits for them up to LockTimeout;
// those of a process whose pid was reused are rolled back.
func TestStore_Open_LeavesLiveTransactions(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("tells a reused pid by its start time in /proc")
	}
	ctx := context.Background()
	self := procid.Self()
	for _, tc := range []struct {
		name  string
		owner procid.ID
		host  string
		live  bool
	}{
		{"running", self, procid.Host(), true},
		{"pid reused", procid.ID{PID: self.PID, Start: self.Start + 1}, procid.Host(), false},
		{"other host", procid.ID{PID: self.PID, Start: self.Start + 1}, "elsewhere", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := seeded(t, crashSeed)
			head := rev(t, dir, "HEAD")
			s := openStore(t, dir)
			j := &journal.Journal{Branch: "refs/heads/main", Parent: head, Commit: strings.Repeat("1", 40)}
			if err := s.writeJournal(j, nil); err != nil {
				t.Fatal(err)
			}
			lock := j.IndexLockContent()
			if tc.owner != self {
				j.Host = tc.host
				b, err := json.Marshal(j)
				if err != nil {
					t.Fatal(err)
				}
				os.Remove(j.File())
				name := tc.owner.String() + "-" + j.Tag()
				if err := os.WriteFile(filepath.Join(s.txnDir(), name+".json"), b, 0o666); err != nil {
					t.Fatal(err)
				}
				lock = []byte("wikid " + name + "\n")
			}
			if err := os.WriteFile(filepath.Join(dir, ".git", "index.lock"), lock, 0o666); err != nil {
				t.Fatal(err)
			}
			s2 := openStore(t, dir)
			start := time.Now()
			_, err := s2.Commit(ctx, request(head, "edit", map[string]string{"a.md": "x\n"}))
			s2.retiring.Wait()
			if !tc.live {
				if err != nil {
					t.Fatalf("Commit: %v", err)
				}
				if l := leftovers(t, dir); len(l) > 0 {
					t.Errorf("left: %v", l)
				}
				checkCheckout(t, dir)
				return
			}
			wantCode(t, err, wiki.CodeLocked)
			if took := time.Since(start); took < s2.lockTimeout {
				t.Errorf("gave up after %s, before LockTimeout", took)
			}
			if l := leftovers(t, dir); len(l) != 2 {
				t.Errorf("left %v, want the lock and the journal", l)
			}
		})
	}
}
