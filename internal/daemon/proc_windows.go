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

// notListening reports whether err, from connecting to a socket, says
// nobody listens there: no socket file, or one nobody accepts on.
func notListening(err error) bool {
	return errors.Is(err, windows.WSAECONNREFUSED) || errors.Is(err, windows.ERROR_FILE_NOT_FOUND) ||
		errors.Is(err, windows.ERROR_PATH_NOT_FOUND) || errors.Is(err, windows.WSAENETUNREACH) ||
		noUnixSockets(err) // no daemon can listen: the commands run in their own process
}

// noUnixSockets reports whether err says the system has no unix sockets.
func noUnixSockets(err error) bool {
	return errors.Is(err, windows.WSAEAFNOSUPPORT) || errors.Is(err, windows.WSAEPROTONOSUPPORT)
}

// wentAway reports whether err says the other end of a connection closed
// it.
func wentAway(err error) bool {
	return errors.Is(err, windows.WSAECONNRESET) || errors.Is(err, windows.WSAECONNABORTED) ||
		errors.Is(err, windows.ERROR_BROKEN_PIPE) || errors.Is(err, windows.ERROR_NO_DATA)
}

// listenError explains err, from listening on the daemon's socket: a
// Windows without unix sockets (before Windows 10 version 1803) is named,
// so that the client that started the daemon says why it serves in its own
// process.
func listenError(err error) error {
	if noUnixSockets(err) || errors.Is(err, windows.WSAEINVAL) {
		return fmt.Errorf("this Windows has no unix sockets, which the daemon listens on (Windows 10 version 1803 and later have them): %w", err)
	}
	return err
}
