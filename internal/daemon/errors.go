package daemon

import (
	"errors"
	"fmt"
)

// ErrRunning is returned, as a *RunningError, by Acquire when another
// process holds the repository's daemon lock.
var ErrRunning = errors.New("a daemon already serves this repository")

// ErrNotRunning is returned by the clients (GetStatus, ConnectMCP, Run,
// Stop) when no daemon serves the repository.
var ErrNotRunning = errors.New("no daemon serves this repository")

// RunningError is returned by Acquire when another process holds the
// daemon lock: the repository's daemon, serving, or still opening the
// repository, or closing it. errors.Is(err, ErrRunning) holds for it.
type RunningError struct {
	// PID is the holder's process id, as it wrote it into the lock file;
	// 0 when it could not be read.
	PID int
}

func (e *RunningError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("%v (pid %d)", ErrRunning, e.PID)
	}
	return ErrRunning.Error()
}

// Is reports whether target is ErrRunning.
func (e *RunningError) Is(target error) bool { return target == ErrRunning }
