package gemm

// F32T computes dst[m×n] = a[m×k] · b[n×k]ᵀ, as attention scores are
// computed from queries and keys. All three are row-major; dst is
// overwritten, its first m×n elements only. It panics if a dimension is
// negative, if a slice is too short for the shape, or if dst overlaps a
// or b.
func F32T(dst, a, b []float32, m, n, k int) {
	checkLen("F32T", "a", len(a), m, k)
	checkLen("F32T", "b", len(b), n, k)
	checkLen("F32T", "dst", len(dst), m, n)
	if m == 0 || n == 0 {
		return
	}
	dst, a, b = dst[:m*n], a[:m*k], b[:n*k]
	checkOverlap("F32T", dst, a)
	checkOverlap("F32T", dst, b)
	current.mulF32(dst, a, b, m, n, k, true)
}

// F32 computes dst[m×n] = a[m×k] · b[k×n], as attention weights times
// values. All three are row-major; dst is overwritten, its first m×n
// elements only. It panics if a dimension is negative, if a slice is too
// short for the shape, or if dst overlaps a or b.
func F32(dst, a, b []float32, m, n, k int) {
	checkLen("F32", "a", len(a), m, k)
	checkLen("F32", "b", len(b), k, n)
	checkLen("F32", "dst", len(dst), m, n)
	if m == 0 || n == 0 {
		return
	}
	dst, a, b = dst[:m*n], a[:m*k], b[:k*n]
	checkOverlap("F32", dst, a)
	checkOverlap("F32", dst, b)
	current.mulF32(dst, a, b, m, n, k, false)
}
