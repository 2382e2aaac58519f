//go:build !unix

package gitstore

// processStart returns 0: the start time is not read here.
func processStart(int) uint64 { return 0 }

// processAlive reports true: without a way to tell, a crashed transaction
// is never rolled back automatically, and its lock files are reported.
func processAlive(procID) bool { return true }

// pidNamespace returns "": there are none here.
func pidNamespace() string { return "" }
