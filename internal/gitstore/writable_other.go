//go:build !unix

package gitstore

// canWrite returns nil: where access(2) is missing (Windows), the
// repository counts as writable, and a write it refuses fails with
// READ_ONLY when it is tried.
func canWrite(string) error { return nil }
