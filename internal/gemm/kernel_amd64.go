//go:build !purego

package gemm

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// avx2Impl multiplies with the AVX2 and FMA kernels of kernel_amd64.s.
var avx2Impl = &impl{name: "avx2", f32: kernelF32AVX2, i8: kernelI8AVX2}

// hasAVX2 says whether this processor runs avx2Impl.
var hasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// best returns avx2Impl if the processor runs it, else the plain-Go
// kernels.
func best() *impl {
	if hasAVX2 {
		return avx2Impl
	}
	return goImpl
}

// impls lists the implementations this build and processor can run, the
// best first.
func impls() []*impl {
	if hasAVX2 {
		return []*impl{avx2Impl, goImpl}
	}
	return []*impl{goImpl}
}

// kernelF32AVX2 is impl.f32 with AVX2 and FMA; it checks the slices'
// lengths before the assembly reads or writes them.
func kernelF32AVX2(k int, a []float32, lda int, b, c []float32, ldc int, scale, bias *[tileN]float32) {
	_ = a[(tileM-1)*lda+k-1]
	_ = b[tileN*k-1]
	_ = c[(tileM-1)*ldc+tileN-1]
	tileF32AVX2(k, unsafe.SliceData(a), lda, unsafe.SliceData(b), unsafe.SliceData(c), ldc, &scale[0], &bias[0])
}

// kernelI8AVX2 is impl.i8 with AVX2 and FMA; it checks the slices'
// lengths before the assembly reads or writes them.
func kernelI8AVX2(k int, a []float32, lda int, b []int8, c []float32, ldc int, scale, bias *[tileN]float32) {
	_ = a[(tileM-1)*lda+k-1]
	_ = b[tileN*k-1]
	_ = c[(tileM-1)*ldc+tileN-1]
	tileI8AVX2(k, unsafe.SliceData(a), lda, unsafe.SliceData(b), unsafe.SliceData(c), ldc, &scale[0], &bias[0])
}

// tileF32AVX2 sets the 6×16 tile at c (row stride ldc) to
// a·b·scale + bias: a is 6 rows of k (row stride lda), b k groups of 16.
//
//go:noescape
func tileF32AVX2(k int, a *float32, lda int, b *float32, c *float32, ldc int, scale *float32, bias *float32)

// tileI8AVX2 is tileF32AVX2 with b in int8, widened as it is read.
//
//go:noescape
func tileI8AVX2(k int, a *float32, lda int, b *int8, c *float32, ldc int, scale *float32, bias *float32)
