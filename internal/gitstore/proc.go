package gitstore

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// procID identifies a process across pid reuse: its pid and its start
// time (clock ticks after boot on Linux, 0 where the system does not say).
type procID struct {
	pid   int
	start uint64
	// elsewhere is set for a process of another host or pid namespace.
	elsewhere bool
}

// self is this process.
var self = procID{pid: os.Getpid(), start: processStart(os.Getpid())}

// selfHost names where pids of this process mean something: the host name
// and, on Linux, the pid namespace. A journal written elsewhere (another
// machine sharing the repository, another container) names a process this
// one cannot see, and is never taken for a dead one.
var selfHost = hostID()

func hostID() string {
	h, _ := os.Hostname()
	return h + pidNamespace()
}

// String is "<pid>-<start>", as journal names spell it.
func (p procID) String() string { return fmt.Sprintf("%d-%d", p.pid, p.start) }

// parseProcID reads "<pid>-<start>".
func parseProcID(s string) (procID, bool) {
	a, b, ok := strings.Cut(s, "-")
	pid, err1 := strconv.Atoi(a)
	start, err2 := strconv.ParseUint(b, 10, 64)
	if !ok || err1 != nil || err2 != nil || pid <= 0 {
		return procID{}, false
	}
	return procID{pid: pid, start: start}, true
}

// alive reports whether the process still runs. When that cannot be told
// it reports true: a transaction is only rolled back when its process is
// known to be gone.
func (p procID) alive() bool {
	if p == self || p.elsewhere {
		return true
	}
	return processAlive(p)
}
