package procid

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"strconv"
)

// startTime returns the start time of process pid (field 22 of
// /proc/<pid>/stat, in clock ticks after boot), or 0.
func startTime(pid int) uint64 {
	start, _, err := procStat(pid)
	if err != nil {
		return 0
	}
	return start
}

// alive reports whether id runs: /proc has a process with its pid and
// start time that is not a zombie. An unreadable /proc counts as alive.
func alive(id ID) bool {
	start, state, err := procStat(id.PID)
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if err != nil {
		return true
	}
	return state != 'Z' && state != 'X' && (id.Start == 0 || start == id.Start)
}

// procStat reads the state (field 3) and start time (field 22) of a process.
// The command name (field 2) is in parentheses and may hold anything, so
// the fields are counted from its last ')'.
func procStat(pid int) (start uint64, state byte, err error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, err
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, errors.New("malformed /proc stat")
	}
	fields := bytes.Fields(b[i+1:])
	if len(fields) < 20 {
		return 0, 0, errors.New("malformed /proc stat")
	}
	start, err = strconv.ParseUint(string(fields[19]), 10, 64)
	if err != nil || len(fields[0]) == 0 {
		return 0, 0, errors.New("malformed /proc stat")
	}
	return start, fields[0][0], nil
}

// pidNamespace returns "/" and the pid namespace of this process, or "".
func pidNamespace() string {
	ns, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return ""
	}
	return "/" + ns
}
