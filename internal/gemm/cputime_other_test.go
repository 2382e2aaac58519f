//go:build !unix

package gemm

// cpuSeconds returns 0: this system's processor time is not read here.
func cpuSeconds() float64 { return 0 }
