package daemon

import (
	"bufio"
	"context"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"
)

// memory returns the process's resident set size now and at its peak, in
// bytes, as /proc reports them; zeros where there is no /proc.
func memory() (rss, peak int64) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(val), " kB"), 10, 64)
		if err != nil {
			continue
		}
		switch key {
		case "VmRSS":
			rss = kb << 10
		case "VmHWM":
			peak = kb << 10
		}
	}
	return rss, peak
}

// The idle trim (see TrimWhenIdle): work is at least trimWork allocated
// since the last trim; idle is less than idleAlloc allocated in one look.
const (
	trimWork  = 16 << 20
	idleAlloc = 1 << 20
)

// TrimWhenIdle gives the memory the heap no longer needs back to the
// system once the process turns idle after work. A daemon's requests (a
// search through every note, a first build) grow the heap, and the runtime
// returns what they left only slowly, while a daemon may then sit idle for
// hours. Every interval it looks at what was allocated: after a burst of
// work, at the first look that finds the process idle, it collects and
// gives back all it can, once. It returns when ctx is done.
func TrimWhenIdle(ctx context.Context, every time.Duration) {
	allocs := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	read := func() uint64 {
		metrics.Read(allocs)
		return allocs[0].Value.Uint64()
	}
	trimmed := read()
	last := trimmed
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		now := read()
		if idleAfterWork(now-trimmed, now-last) {
			debug.FreeOSMemory()
			now = read()
			trimmed = now
		}
		last = now
	}
}

// idleAfterWork reports whether a process that allocated sinceTrim bytes
// since its last trim, lastLook of them since the last look, is idle after
// work.
func idleAfterWork(sinceTrim, lastLook uint64) bool {
	return sinceTrim >= trimWork && lastLook < idleAlloc
}
