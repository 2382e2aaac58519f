//go:build !unix && !windows

package wikierr

// condition returns fsNone: this system's errors are not classified.
func condition(error) fsCondition { return fsNone }
