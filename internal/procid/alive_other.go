//go:build !unix && !windows

package procid

// startTime returns 0: the start time is not read here.
func startTime(int) uint64 { return 0 }

// alive reports true: without a way to tell, no process is known to be
// gone.
func alive(ID) bool { return true }

// pidNamespace returns "": there are none here.
func pidNamespace() string { return "" }
