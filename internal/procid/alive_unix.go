//go:build unix && !linux

package procid

import (
	"errors"
	"syscall"
)

// startTime returns 0: outside Linux the start time is not read, and a
// process is known by its pid alone.
func startTime(int) uint64 { return 0 }

// alive reports whether a process with id's pid exists (kill with signal
// 0). A reused pid makes a dead process look alive, which errs on the safe
// side.
func alive(id ID) bool {
	err := syscall.Kill(id.PID, 0)
	return err == nil || !errors.Is(err, syscall.ESRCH)
}

// pidNamespace returns "": there are none here.
func pidNamespace() string { return "" }
