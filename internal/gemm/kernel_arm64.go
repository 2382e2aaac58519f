//go:build !purego

package gemm

import "unsafe"

// neonImpl multiplies with the NEON kernels of kernel_arm64.s; every
// arm64 processor Go runs on has NEON.
var neonImpl = &impl{name: "neon", f32: kernelF32NEON, i8: kernelI8NEON}

// best returns neonImpl.
func best() *impl { return neonImpl }

// impls lists the implementations this build and processor can run, the
// best first.
func impls() []*impl { return []*impl{neonImpl, goImpl} }

// kernelF32NEON is impl.f32 with NEON; it checks the slices'
// lengths before the assembly reads or writes them.
func kernelF32NEON(k int, a []float32, lda int, b, c []float32, ldc int, scale, bias *[tileN]float32) {
	_ = a[(tileM-1)*lda+k-1]
	_ = b[tileN*k-1]
	_ = c[(tileM-1)*ldc+tileN-1]
	tileF32NEON(k, unsafe.SliceData(a), lda, unsafe.SliceData(b), unsafe.SliceData(c), ldc, &scale[0], &bias[0])
}

// kernelI8NEON is impl.i8 with NEON; it checks the slices'
// lengths before the assembly reads or writes them.
func kernelI8NEON(k int, a []float32, lda int, b []int8, c []float32, ldc int, scale, bias *[tileN]float32) {
	_ = a[(tileM-1)*lda+k-1]
	_ = b[tileN*k-1]
	_ = c[(tileM-1)*ldc+tileN-1]
	tileI8NEON(k, unsafe.SliceData(a), lda, unsafe.SliceData(b), unsafe.SliceData(c), ldc, &scale[0], &bias[0])
}

// tileF32NEON sets the 6×16 tile at c (row stride ldc) to
// a·b·scale + bias: a is 6 rows of k (row stride lda), b k groups of 16.
//
//go:noescape
func tileF32NEON(k int, a *float32, lda int, b *float32, c *float32, ldc int, scale *float32, bias *float32)

// tileI8NEON is tileF32NEON with b in int8, widened as it is read.
//
//go:noescape
func tileI8NEON(k int, a *float32, lda int, b *int8, c *float32, ldc int, scale *float32, bias *float32)
