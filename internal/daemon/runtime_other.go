//go:build !unix && !windows

package daemon

import "os"

// checkPrivate returns nil: this system has no owners to check.
func checkPrivate(string, os.FileInfo) error { return nil }

// restrictSocket does nothing here.
func restrictSocket(string) error { return nil }

// checkRecord returns nil: this system has no owners to check.
func checkRecord(string, os.FileInfo) error { return nil }
