package procid

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ID identifies a process across pid reuse.
type ID struct {
	PID int
	// Start is the process's start time: clock ticks after boot on Linux,
	// 100-nanosecond intervals since 1601 on Windows,
	// 0 where the system does not say.
	Start uint64
}

var (
	self = ID{PID: os.Getpid(), Start: startTime(os.Getpid())}
	host = hostID()
)

// Self returns the ID of this process.
func Self() ID { return self }

// Host names where the pids of this process mean something: the host name
// and, on Linux, the pid namespace.
func Host() string { return host }

func hostID() string {
	h, _ := os.Hostname()
	return h + pidNamespace()
}

// String returns "<pid>-<start>", the form Parse reads.
func (id ID) String() string { return fmt.Sprintf("%d-%d", id.PID, id.Start) }

// Parse reads "<pid>-<start>", as String writes it. It returns an error for
// anything else, or a pid that is not positive.
func Parse(s string) (ID, error) {
	a, b, ok := strings.Cut(s, "-")
	pid, err1 := strconv.Atoi(a)
	start, err2 := strconv.ParseUint(b, 10, 64)
	if !ok || err1 != nil || err2 != nil || pid <= 0 {
		return ID{}, fmt.Errorf("procid: %q is not <pid>-<start>", s)
	}
	return ID{PID: pid, Start: start}, nil
}

// Alive reports whether the process still runs, on this host. When that
// cannot be told it reports true, so that a caller that cleans up after
// dead processes never takes a live one for dead.
func (id ID) Alive() bool {
	if id == self {
		return true
	}
	return alive(id)
}
