package daemon

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Lock is a repository's daemon lock, a file next to its socket. The
// process that holds it is the repository's daemon: it takes the lock
// first, before it opens the repository or rolls back what a crashed
// process left, and lets go of it last, once the repository is closed. So
// a process that is not to be the daemon learns it before it has touched
// the repository, and a daemon never finds the search index still held by
// the one before it.
type Lock struct{ f *os.File }

// Acquire takes e's daemon lock without waiting and writes this process's
// pid into it. The lock goes with the process: one that dies, however it
// dies, lets go of it. It returns a *RunningError when another process
// holds it, and an error when the lock file cannot be opened or locked.
func Acquire(e Endpoint) (*Lock, error) {
	f, err := os.OpenFile(e.Lock, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("daemon lock: %w", err)
	}
	if err := tryLock(f, true); err != nil {
		f.Close()
		if errors.Is(err, errHeld) {
			return nil, &RunningError{PID: lockPID(e.Lock)}
		}
		return nil, fmt.Errorf("daemon lock: %w", err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &Lock{f: f}, nil
}

// Release lets go of the lock; the file stays, so that a daemon starting
// meanwhile locks the same one.
func (l *Lock) Release() {
	_ = unlock(l.f)
	l.f.Close()
}

// Holder reports whether a process holds e's daemon lock, and its pid (0
// when it could not be read). A daemon holds it from before it opens the
// repository until after it has closed it, so a holder whose socket does
// not answer is starting, or stopping.
//
// Holder takes a shared lock for an instant to find out: a daemon that
// tries to start in that instant is refused as if one ran.
func Holder(e Endpoint) (pid int, held bool) {
	f, err := os.Open(e.Lock)
	if err != nil {
		return 0, false // never made: nobody ever held it
	}
	defer f.Close()
	if err := tryLock(f, false); err != nil {
		if errors.Is(err, errHeld) {
			return lockPID(e.Lock), true
		}
		return 0, false
	}
	_ = unlock(f)
	return 0, false
}

// errHeld is returned by tryLock when another process holds the lock.
var errHeld = errors.New("held by another process")

// lockPID reads the pid a daemon wrote into its lock file; 0 if none.
func lockPID(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}

// Held reports whether the lock file at l's path is still the file l
// holds: false once someone removed it (with the repository's wikid/
// folder, say), when a daemon starting now would take a new one.
func (l *Lock) Held(e Endpoint) bool {
	have, err := l.f.Stat()
	if err != nil {
		return true // cannot tell: as if held
	}
	now, err := os.Stat(e.Lock)
	return err == nil && os.SameFile(have, now)
}
