//go:build unix

package gitdir

import "golang.org/x/sys/unix"

// canWrite returns nil when this user may create files in the folder dir,
// and why not otherwise (a permission, a read-only file system).
func canWrite(dir string) error { return unix.Access(dir, unix.W_OK) }
