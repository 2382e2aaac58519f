package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/gitstore/internal/journal"
	"github.com/wikid/wikid/internal/wiki"
)

// lockFile is a git lock file we created: "<file>.lock", made exclusively
// so that only one process holds it, with its content in place from the
// first instant (see createLock). Committing renames it over the file;
// releasing removes it. Someone else's lock is never touched.
type lockFile struct {
	path   string // the lock file
	target string // the file it locks
}

// lockOwner says who holds a lock file, as far as the journals tell.
type lockOwner int

const (
	ownerForeign lockOwner = iota // not wikid: a git command, running or crashed
	ownerLive                     // a wikid transaction whose process runs
	ownerDead                     // a wikid transaction whose process is gone
)

// acquireLock creates target+".lock" holding content, synced to disk first
// if sync is set. While the lock is
// held it looks at who holds it: a transaction of a wikid process that is
// gone is rolled back first (which removes its locks); a running wikid
// transaction is waited for up to Options.LockTimeout; anyone else's lock
// (a git command's) is waited for only briefly, Options.ForeignLockWait,
// and never removed. It then returns an error of code LOCKED naming the
// file, the context's error when it is cancelled first, or one of code
// READ_ONLY when the repository cannot be written.
func (s *Store) acquireLock(ctx context.Context, target string, content []byte, sync bool) (*lockFile, error) {
	return s.acquireLockFrom(ctx, target, content, sync, "")
}

// acquireLockFrom is acquireLock with the lock's content written ahead of
// time to prepared, a temporary file next to the lock (synced if sync is
// set), which every attempt links instead of writing one; "" writes one
// per attempt. prepared stays for the caller to remove.
func (s *Store) acquireLockFrom(ctx context.Context, target string, content []byte, sync bool, prepared string) (*lockFile, error) {
	path := target + ".lock"
	start := time.Now()
	wait := time.Millisecond
	recovered := false
	for {
		err := s.createLock(path, content, sync, prepared)
		if err == nil {
			return &lockFile{path: path, target: target}, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, lockCreateError(path, err)
		}
		owner, j := s.lockOwner(path)
		limit := s.foreignWait
		switch owner {
		case ownerDead:
			if !recovered {
				recovered = true
				if err := s.recoverTxn(ctx, j); err != nil {
					return nil, err
				}
				continue
			}
		case ownerLive:
			limit = s.lockTimeout
		}
		if time.Since(start) >= limit {
			return nil, lockedError(path, owner)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
		wait = min(2*wait, 20*time.Millisecond)
	}
}

// createLock creates the lock file path with content, exclusively. The
// content is written to a temporary file first (or was, to prepared, when
// that is not "") and hard-linked to path, which fails if path exists: the
// lock never exists without its content, so a lock left by a crash can
// always be told as wikid's or not. Where hard links are not supported it
// falls back to an exclusive create and a write (a crash in between leaves
// an empty lock, reported as foreign).
func (s *Store) createLock(path string, content []byte, sync bool, prepared string) error {
	tmp := prepared
	if tmp == "" {
		var err error
		if tmp, err = s.writeTemp(filepath.Dir(path), content, 0o666, sync); err != nil {
			return err
		}
	}
	err := os.Link(tmp, path)
	if prepared == "" {
		os.Remove(tmp)
	}
	var le *os.LinkError
	if err == nil || errors.Is(err, fs.ErrExist) || !errors.As(err, &le) ||
		!(errors.Is(le.Err, syscall.EPERM) || errors.Is(le.Err, syscall.ENOTSUP) || errors.Is(le.Err, syscall.EXDEV)) {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return err
	}
	_, err = f.Write(content)
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// lockOwner tells whose lock file path is: wikid's index lock holds
// "wikid <journal>\n" and a ref lock of wikid's holds the new commit a
// journal names; anything else is foreign. For a lock of wikid's it returns
// the journal too (nil when it is gone).
func (s *Store) lockOwner(path string) (lockOwner, *journal.Journal) {
	head := readHead(path, 128)
	if head == nil {
		return ownerForeign, nil
	}
	js := s.journals()
	for _, j := range js {
		if bytes.Equal(head, j.IndexLockContent()) || (j.Commit != "" && bytes.Equal(head, j.RefLockContent())) {
			if j.Alive() {
				return ownerLive, j
			}
			return ownerDead, j
		}
	}
	return ownerForeign, nil
}

// readHead returns up to n bytes from the start of a file, or nil.
func readHead(name string, n int) []byte {
	f, err := os.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	b := make([]byte, n)
	k, err := io.ReadFull(f, b)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil
	}
	return b[:k]
}

// lockedError is the LOCKED error for a lock file held too long.
func lockedError(path string, owner lockOwner) error {
	if owner == ownerLive {
		return wiki.Errorf(wiki.CodeLocked, "another wikid process holds %s and has not finished its commit", path).
			WithHint("retry in a moment")
	}
	e := wiki.Errorf(wiki.CodeLocked, "%s exists: another git command is running, or one crashed", path)
	e.Details = map[string]any{"lock": path}
	return e.WithHint("wait for the git command to finish; if none is running, remove %s and retry", path)
}

// lockCreateError explains why a lock file could not be created. A full
// or read-only file system is left to classify.
func lockCreateError(path string, err error) error {
	if errors.Is(err, fs.ErrPermission) {
		return wiki.Errorf(wiki.CodeReadOnly, "the repository cannot be written: %v", err).
			WithHint("give wikid write access to %s, or serve with {read_only}", filepath.Dir(path))
	}
	return fmt.Errorf("create %s: %w", path, err)
}

// commit renames the lock file over its target.
func (l *lockFile) commit() error {
	if err := os.Rename(l.path, l.target); err != nil {
		os.Remove(l.path)
		return fmt.Errorf("rename %s: %w", l.path, err)
	}
	return nil
}

// release removes the lock file, leaving the target as it was.
func (l *lockFile) release() {
	os.Remove(l.path)
}

// Blocked returns why a commit would fail with LOCKED now, or "": the index
// lock (in a checkout), HEAD's lock or the lock of the branch HEAD points at exists and
// was not taken by wikid. A lock of a running wikid commit, or one a crashed
// wikid left (the next commit rolls it back), does not block.
func (s *Store) Blocked(ctx context.Context) string {
	if s.check(ctx) != nil {
		return ""
	}
	var locks []string
	if s.workTree != "" {
		locks = append(locks, s.indexPath()+".lock")
	}
	if head, err := s.readHead(); err == nil && head.Branch != "" && gitformat.CheckRefName(head.Branch) == nil {
		locks = append(locks, s.headPath()+".lock", filepath.Join(s.commonDir, filepath.FromSlash(head.Branch))+".lock")
	}
	for _, l := range locks {
		if _, err := os.Lstat(l); err != nil {
			continue
		}
		if owner, _ := s.lockOwner(l); owner == ownerForeign {
			return fmt.Sprintf("%s exists: another git command is running, or one crashed; if none is running, remove the file", l)
		}
	}
	return ""
}
