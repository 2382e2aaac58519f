//go:build windows

package daemon

import (
	"errors"
	"fmt"
	"syscall"

	"golang.org/x/sys/windows"
)

// detached starts a daemon without a console and in a process group of its
// own: closing the caller's console, or Ctrl-C in it, does not end it.
func detached() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{HideWindow: true,
		CreationFlags: windows.CREATE_NEW_PROCESS_GROUP | windows.DETACHED_PROCESS}
}

// notListening reports whether err, from connecting to the daemon's pipe,
// says nobody listens there: no pipe of that name.
func notListening(err error) bool {
	return errors.Is(err, windows.ERROR_FILE_NOT_FOUND) || errors.Is(err, windows.ERROR_PATH_NOT_FOUND)
}

// wentAway reports whether err says the other end of a connection closed
// it.
func wentAway(err error) bool {
	return errors.Is(err, windows.ERROR_BROKEN_PIPE) || errors.Is(err, windows.ERROR_NO_DATA) ||
		errors.Is(err, windows.ERROR_PIPE_NOT_CONNECTED)
}

// listenError explains err, from making the daemon's pipe: one of that
// name exists already, which only another process can hold (the daemon
// lock keeps a second daemon of this user out), another user's among them.
func listenError(err error) error {
	if errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_PIPE_BUSY) {
		return fmt.Errorf("another process holds the daemon's pipe (a daemon of another user?): %w", err)
	}
	return err
}
