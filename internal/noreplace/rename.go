package noreplace

import (
	"errors"
	"io/fs"
	"os"
)

// linkRename renames old to new unless new exists: a hard link, which fails
// if new exists, then the removal of old. On a file system without hard
// links it looks first and renames, which leaves a moment in which a file
// created at new is replaced.
func linkRename(old, new string) error {
	err := os.Link(old, new)
	if err == nil {
		return os.Remove(old)
	}
	if errors.Is(err, fs.ErrExist) || errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if _, err := os.Lstat(new); !errors.Is(err, fs.ErrNotExist) {
		return &os.LinkError{Op: "rename", Old: old, New: new, Err: fs.ErrExist}
	}
	return os.Rename(old, new)
}
