//go:build unix

package wikierr

import (
	"errors"
	"syscall"
)

// condition returns the condition of the file system err's chain holds.
func condition(err error) fsCondition {
	switch {
	case errors.Is(err, syscall.ENOSPC):
		return fsFull
	case errors.Is(err, syscall.EDQUOT):
		return fsQuota
	case errors.Is(err, syscall.EROFS):
		return fsReadOnly
	}
	return fsNone
}
