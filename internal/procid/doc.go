// Package procid names a process so that it can be told apart from a later
// process that was given the same pid, and tells whether it still runs.
//
// An ID is the pid and, on Linux, the process's start time (field 22 of
// /proc/<pid>/stat, in clock ticks after boot), on Windows its creation
// time: a pid reused by another process has another start time, so the
// dead process is not taken for a live one. Elsewhere the start time is 0
// and a process is known by its pid alone; a reused pid then makes a dead
// process look alive, which errs on the safe side for a caller that only
// cleans up after processes known to be gone. On other systems than Unix
// and Windows no process is known to be gone.
//
// A pid means something only on its host and, on Linux, in its pid
// namespace: Host names both, so that a record written by a process on
// another machine sharing the same files, or in another container, is not
// judged by the pids of this one.
package procid
