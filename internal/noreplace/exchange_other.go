//go:build !linux && !darwin

package noreplace

import (
	"errors"
	"os"
)

// Exchange would swap the files at a and b in one step; this system cannot,
// so it returns an error wrapping errors.ErrUnsupported.
func Exchange(a, b string) error {
	return &os.LinkError{Op: "exchange", Old: a, New: b, Err: errors.ErrUnsupported}
}
