//go:build unix

package daemon

import (
	"errors"
	"syscall"
)

// detached starts a daemon in a session of its own, without the caller's
// terminal: closing the terminal does not end it.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// notListening reports whether err, from connecting to a socket, says
// nobody listens there: no socket file, or one nobody accepts on.
func notListening(err error) bool {
	return errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED)
}

// wentAway reports whether err says the other end of a connection closed
// it.
func wentAway(err error) bool {
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// listenError returns err, from listening on the daemon's socket.
func listenError(err error) error { return err }
