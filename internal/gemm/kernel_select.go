package gemm

// current is the implementation in use: the best the processor runs, or
// plain Go. Tests switch it.
var current = best()

// Kernel names the micro-kernel in use: "avx2" (amd64 with AVX2 and FMA),
// "neon" (arm64), or "go" (elsewhere, or built with the tag purego).
func Kernel() string { return current.name }
