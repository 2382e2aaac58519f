package noreplace

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// Rename renames old to new unless new exists (an error wrapping
// fs.ErrExist then), atomically where the file system allows it.
func Rename(old, new string) error {
	err := unix.Renameat2(unix.AT_FDCWD, old, unix.AT_FDCWD, new, unix.RENAME_NOREPLACE)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.EINVAL), errors.Is(err, unix.ENOSYS), errors.Is(err, unix.ENOTSUP):
		return linkRename(old, new) // a file system without the flag
	}
	return &os.LinkError{Op: "rename", Old: old, New: new, Err: err}
}
