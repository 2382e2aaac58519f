//go:build unix

package daemon

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes f's lock, exclusive or shared, without waiting (flock).
// It returns errHeld when another process holds it.
func tryLock(f *os.File, exclusive bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errHeld
	}
	return err
}

// unlock lets go of f's lock.
func unlock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
