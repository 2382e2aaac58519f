//go:build !linux

package gittest

import "testing"

// TinyDisk skips the test: a tmpfs is mounted on Linux only.
func TinyDisk(tb testing.TB, size int64) string {
	tb.Helper()
	tb.Skip("a tiny disk to fill is a tmpfs, which this test mounts on Linux only")
	return ""
}
