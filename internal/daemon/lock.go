package daemon

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// lockFile is the held lock of a running daemon.
type lockFile struct{ f *os.File }

// ErrRunning is returned by Serve when another daemon holds the lock.
var ErrRunning = errors.New("a daemon already serves this repository")

// acquire takes the endpoint's lock without waiting and writes the pid into
// it. The lock goes with the process: a daemon that dies, however it dies,
// releases it.
func acquire(path string) (*lockFile, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("daemon lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			if pid := lockHolder(path); pid > 0 {
				return nil, fmt.Errorf("%w (pid %d)", ErrRunning, pid)
			}
			return nil, ErrRunning
		}
		return nil, fmt.Errorf("daemon lock: %w", err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &lockFile{f: f}, nil
}

// release unlocks and closes the lock file; the file stays, so that a
// daemon starting meanwhile locks the same one.
func (l *lockFile) release() {
	_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
}

// lockHolder reads the pid a daemon wrote into its lock file; 0 if none.
func lockHolder(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}
