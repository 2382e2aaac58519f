package gittest

import (
	"fmt"
	"syscall"
	"testing"
)

// TinyDisk mounts a tmpfs of size bytes on a new temporary folder, for
// tests that fill a disk, and returns the folder; it is unmounted when the
// test ends. It skips the test where mounting is not allowed (not root,
// or no CAP_SYS_ADMIN), saying so.
func TinyDisk(tb testing.TB, size int64) string {
	tb.Helper()
	dir := tb.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d,mode=0755", size)); err != nil {
		tb.Skipf("cannot mount a tmpfs to fill (%v): run the test as root on Linux to test a full disk", err)
	}
	tb.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			tb.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}
