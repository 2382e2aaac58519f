//go:build !unix

package encoder

import "time"

var start = time.Now()

// cpuTime is the wall-clock time since the tests started, where the CPU
// time is not read.
func cpuTime() time.Duration { return time.Since(start) }
