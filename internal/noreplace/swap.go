package noreplace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ErrReplaced is returned by SwapByLink when a file was renamed over dst
// while it worked: nothing was swapped.
var ErrReplaced = errors.New("replaced while it was being swapped")

// Swap puts the file src at dst, and the file that was at dst at aside (a
// new name), without dst ever missing: src's name is gone afterwards. It
// swaps the names in one step where the system can (see Exchange), else it
// falls back on SwapByLink. It returns an error wrapping fs.ErrNotExist
// when dst is missing, and then leaves src as it is.
func Swap(src, dst, aside string) error {
	err := Exchange(src, dst)
	switch {
	case err == nil:
		if err := os.Rename(src, aside); err != nil {
			Exchange(src, dst) // back as it was
			return err
		}
		return nil
	case errors.Is(err, errors.ErrUnsupported):
		return SwapByLink(src, dst, aside)
	}
	return err
}

// SwapByLink is Swap where names cannot be swapped in one step: dst is
// hard-linked at aside (copied, on a file system without hard links), then
// src is renamed over dst, so that dst is never missing either. A file
// renamed over dst between the two steps would be replaced unseen: dst is
// compared with what was linked just before, which leaves a window of
// microseconds, and ErrReplaced returned when it changed.
func SwapByLink(src, dst, aside string) error {
	before, err := os.Lstat(dst)
	if err != nil {
		return err
	}
	if err := os.Link(dst, aside); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err := copyFile(dst, aside, before); err != nil {
			return err
		}
	}
	if now, err := os.Lstat(dst); err != nil || !os.SameFile(before, now) || now.Size() != before.Size() || !now.ModTime().Equal(before.ModTime()) {
		os.Remove(aside)
		if err != nil {
			return err
		}
		return fmt.Errorf("swap %s: %w", dst, ErrReplaced)
	}
	if err := os.Rename(src, dst); err != nil {
		os.Remove(aside)
		return err
	}
	return nil
}

// copyFile copies the regular file from (as stat describes it) to a new file
// to, for a file system without hard links.
func copyFile(from, to string, stat fs.FileInfo) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	err = os.WriteFile(to, b, stat.Mode().Perm())
	if err != nil {
		os.Remove(to)
	}
	return err
}
