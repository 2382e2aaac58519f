//go:build windows

package procid

import (
	"errors"

	"golang.org/x/sys/windows"
)

// stillActive is the exit code GetExitCodeProcess reports for a process
// that runs.
const stillActive = 259

// startTime returns the creation time of process pid (GetProcessTimes, in
// 100-nanosecond intervals since 1601), or 0.
func startTime(pid int) uint64 {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return 0
	}
	defer windows.CloseHandle(h)
	return creation(h)
}

// creation returns the creation time of the process h, or 0.
func creation(h windows.Handle) uint64 {
	var c, e, k, u windows.Filetime
	if windows.GetProcessTimes(h, &c, &e, &k, &u) != nil {
		return 0
	}
	return uint64(c.HighDateTime)<<32 | uint64(c.LowDateTime)
}

// alive reports whether id runs: a process with its pid that has not
// exited and, when id has a start time, was created then. A process that
// cannot be asked (another user's) counts as alive.
func alive(id ID) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(id.PID))
	if errors.Is(err, windows.ERROR_INVALID_PARAMETER) {
		return false // no process has that pid
	}
	if err != nil {
		return true
	}
	defer windows.CloseHandle(h)
	var code uint32
	if windows.GetExitCodeProcess(h, &code) == nil && code != stillActive {
		return false
	}
	if start := creation(h); id.Start != 0 && start != 0 && start != id.Start {
		return false // the pid was given to another process
	}
	return true
}

// pidNamespace returns "": there are none here.
func pidNamespace() string { return "" }
