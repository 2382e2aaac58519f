package noreplace

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// Exchange swaps the files (or folders) at a and b in one step: a then
// names what b named and b what a named, and neither name is missing at
// any moment. Both must exist (an error wrapping fs.ErrNotExist if not). A
// file system that cannot swap gives an error wrapping
// errors.ErrUnsupported.
func Exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.EINVAL), errors.Is(err, unix.ENOSYS), errors.Is(err, unix.ENOTSUP):
		return &os.LinkError{Op: "exchange", Old: a, New: b, Err: errors.ErrUnsupported}
	}
	return &os.LinkError{Op: "exchange", Old: a, New: b, Err: err}
}
