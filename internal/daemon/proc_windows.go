//go:build windows

package daemon

import (
	"errors"
	"syscall"

	"golang.org/x/sys/windows"
)

// detached starts a daemon without a console and in a process group of its
// own: closing the caller's console, or Ctrl-C in it, does not end it.
func detached() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{HideWindow: true,
		CreationFlags: windows.CREATE_NEW_PROCESS_GROUP | windows.DETACHED_PROCESS}
}

// notListening reports whether err, from connecting to a socket, says
// nobody listens there: no socket file, or one nobody accepts on.
func notListening(err error) bool {
	return errors.Is(err, windows.WSAECONNREFUSED) || errors.Is(err, windows.ERROR_FILE_NOT_FOUND) ||
		errors.Is(err, windows.ERROR_PATH_NOT_FOUND) || errors.Is(err, windows.WSAENETUNREACH)
}

// wentAway reports whether err says the other end of a connection closed
// it.
func wentAway(err error) bool {
	return errors.Is(err, windows.WSAECONNRESET) || errors.Is(err, windows.WSAECONNABORTED) ||
		errors.Is(err, windows.ERROR_BROKEN_PIPE) || errors.Is(err, windows.ERROR_NO_DATA)
}
