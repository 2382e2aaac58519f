package gitstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// lockFile is a git lock file we created: "<file>.lock", made with
// O_CREATE|O_EXCL so that only one process holds it. Committing renames it
// over the file; releasing removes it. Someone else's lock is never touched.
type lockFile struct {
	path   string // the lock file
	target string // the file it locks
	f      *os.File
}

// acquireLock creates target+".lock", retrying with short sleeps while
// another process holds it, up to timeout. It returns an error wrapping
// ErrLocked naming the lock file when the timeout runs out, or the context's
// error when it is cancelled first.
func acquireLock(ctx context.Context, target string, timeout time.Duration) (*lockFile, error) {
	path := target + ".lock"
	deadline := time.Now().Add(timeout)
	wait := time.Millisecond
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil {
			return &lockFile{path: path, target: target, f: f}, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("create %s: %w", path, err)
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%w: %s still exists after %s; another git process is running, "+
				"or one crashed: remove the file if no git command is running", ErrLocked, path, timeout)
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

// commit closes the lock file and renames it over its target.
func (l *lockFile) commit() error {
	if err := l.f.Close(); err != nil {
		l.release()
		return fmt.Errorf("write %s: %w", l.path, err)
	}
	if err := os.Rename(l.path, l.target); err != nil {
		os.Remove(l.path)
		return fmt.Errorf("rename %s: %w", l.path, err)
	}
	return nil
}

// release closes and removes the lock file, leaving the target as it was.
func (l *lockFile) release() {
	l.f.Close()
	os.Remove(l.path)
}
