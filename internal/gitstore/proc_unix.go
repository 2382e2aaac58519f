//go:build unix && !linux

package gitstore

import (
	"errors"
	"syscall"
)

// processStart returns 0: outside Linux the start time is not read, and a
// process is known by its pid alone.
func processStart(int) uint64 { return 0 }

// processAlive reports whether a process with p's pid exists (kill with
// signal 0). A reused pid makes a dead process look alive, which errs on
// the safe side: its transaction is left alone.
func processAlive(p procID) bool {
	err := syscall.Kill(p.pid, 0)
	return err == nil || !errors.Is(err, syscall.ESRCH)
}

// pidNamespace returns "": there are none here.
func pidNamespace() string { return "" }
