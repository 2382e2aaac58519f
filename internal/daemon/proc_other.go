//go:build !unix && !windows

package daemon

import (
	"errors"
	"io/fs"
	"syscall"
)

// detached returns nil: the daemon starts as the system starts it.
func detached() *syscall.SysProcAttr { return nil }

// notListening reports whether err says there is no socket.
func notListening(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// wentAway reports false: closed connections are told apart by io.EOF.
func wentAway(error) bool { return false }

// listenError returns err, from listening on the daemon's socket.
func listenError(err error) error { return err }
