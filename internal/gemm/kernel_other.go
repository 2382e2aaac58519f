//go:build purego || !(amd64 || arm64)

package gemm

// best returns the plain-Go kernels: this build has no assembly.
func best() *impl { return goImpl }

// impls lists the implementations this build and processor can run, the
// best first.
func impls() []*impl { return []*impl{goImpl} }
