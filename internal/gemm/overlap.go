package gemm

import (
	"fmt"
	"unsafe"
)

// checkOverlap panics if dst and src, both non-empty, share memory: a
// product written over its own operand would read sums for inputs.
func checkOverlap(fn string, dst, src []float32) {
	if len(dst) == 0 || len(src) == 0 {
		return
	}
	d0 := uintptr(unsafe.Pointer(unsafe.SliceData(dst)))
	s0 := uintptr(unsafe.Pointer(unsafe.SliceData(src)))
	d1 := d0 + uintptr(len(dst))*4
	s1 := s0 + uintptr(len(src))*4
	if d0 < s1 && s0 < d1 {
		panic(fmt.Sprintf("gemm.%s: dst overlaps an operand", fn))
	}
}
