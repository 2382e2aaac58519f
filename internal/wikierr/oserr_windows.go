//go:build windows

package wikierr

import (
	"errors"
	"syscall"
)

// The Windows system error codes of the conditions (see winerror.h); the
// syscall package spells none of them.
const (
	errorWriteProtect      syscall.Errno = 19
	errorHandleDiskFull    syscall.Errno = 39
	errorDiskFull          syscall.Errno = 112
	errorDiskQuotaExceeded syscall.Errno = 1295
)

// condition returns the condition of the file system err's chain holds.
func condition(err error) fsCondition {
	switch {
	case errors.Is(err, errorDiskFull), errors.Is(err, errorHandleDiskFull):
		return fsFull
	case errors.Is(err, errorDiskQuotaExceeded):
		return fsQuota
	case errors.Is(err, errorWriteProtect):
		return fsReadOnly
	}
	return fsNone
}
