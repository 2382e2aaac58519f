package wikierr

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// fsCondition is a condition of the file system that a write can meet and
// that the user, not wikid, can put right.
type fsCondition int

const (
	fsNone     fsCondition = iota
	fsFull                 // no space left on the device
	fsQuota                // the user's disk quota is used up
	fsReadOnly             // the file system is mounted read-only
)

// FromOS returns err as a contract error when its chain holds a condition
// of the file system that the user can put right, and err as it is
// otherwise, or when it already carries a code:
//   - no space left on the device (ENOSPC; ERROR_DISK_FULL and
//     ERROR_HANDLE_DISK_FULL on Windows) or a disk quota used up (EDQUOT;
//     ERROR_DISK_QUOTA_EXCEEDED): NO_SPACE;
//   - a read-only file system (EROFS; ERROR_WRITE_PROTECT): READ_ONLY.
//
// The message names the file that could not be written, as the
// *fs.PathError or *os.LinkError in the chain has it, and the hint the
// folder to free space in. errors.Is and errors.As still find err's chain
// in the result. The store applies it where its writes return, so that
// every write of a mutation is classified at that one depth.
func FromOS(err error) error {
	if err == nil || CodeOf(err) != CodeInternal {
		return err
	}
	cond := condition(err)
	if cond == fsNone {
		return err
	}
	file, dir := "a file", "the repository"
	if p := failedPath(err); p != "" {
		file, dir = p, filepath.Dir(p)
	}
	var e *Error
	switch cond {
	case fsFull:
		e = Errorf(CodeNoSpace, "no space left on the device: %s could not be written", file).
			WithHint("free space on the disk that holds %s, then retry", dir)
	case fsQuota:
		e = Errorf(CodeNoSpace, "the disk quota is used up: %s could not be written", file).
			WithHint("free space within your quota on the disk that holds %s (or have the quota raised), then retry", dir)
	default:
		e = Errorf(CodeReadOnly, "the file system is read-only: %s could not be written", file).
			WithHint("remount the file system that holds %s read-write, or serve with {read_only}", dir)
	}
	return WithCause(e, err)
}

// failedPath returns the file an I/O error of err's chain is about, or "".
func failedPath(err error) string {
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.New
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Path
	}
	return ""
}

// WithCause returns an error that reads as e and carries cause: errors.As
// finds e (so the front ends render the contract error), and errors.Is
// and errors.As find cause's chain too.
func WithCause(e *Error, cause error) error { return &causedError{e: e, cause: cause} }

// causedError is a contract error with the error it stands for.
type causedError struct {
	e     *Error
	cause error
}

func (c *causedError) Error() string   { return c.e.Error() }
func (c *causedError) Unwrap() []error { return []error{c.e, c.cause} }
