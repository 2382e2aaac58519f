package gemm

import (
	"fmt"
	"strings"
	"testing"
)

// panicOf returns the message f panics with, or "" if it returns.
func panicOf(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

func TestArguments(t *testing.T) {
	w := NewInt8(make([]int8, 6), []float32{1, 1, 1}, 3, 2)
	buf := make([]float32, 12)
	tests := []struct {
		name, want string
		f          func(dst []float32)
	}{
		{"MulT short a", "gemm.Int8.MulT: a has 3 elements, 2×2 needs 4", func(dst []float32) { w.MulT(dst, make([]float32, 3), 2, nil) }},
		{"MulT short dst", "gemm.Int8.MulT: dst has 5 elements, 2×3 needs 6", func(dst []float32) { w.MulT(dst[:5], make([]float32, 4), 2, nil) }},
		{"MulT short bias", "gemm.Int8.MulT: bias has 2 elements, 1×3 needs 3", func(dst []float32) { w.MulT(dst, make([]float32, 4), 2, []float32{1, 2}) }},
		{"MulT negative m", "gemm.Int8.MulT: negative dimension -1×2", func(dst []float32) { w.MulT(dst, make([]float32, 4), -1, nil) }},
		{"MulT dst is a", "gemm.Int8.MulT: dst overlaps an operand", func(dst []float32) { w.MulT(dst, dst, 2, nil) }},
		{"F32T short b", "gemm.F32T: b has 5 elements, 3×2 needs 6", func(dst []float32) { F32T(dst, make([]float32, 4), make([]float32, 5), 2, 3, 2) }},
		{"F32T dst overlaps b", "gemm.F32T: dst overlaps an operand", func(dst []float32) { F32T(dst[:6], make([]float32, 4), dst[5:], 2, 3, 2) }},
		{"F32 short a", "gemm.F32: a has 3 elements, 2×2 needs 4", func(dst []float32) { F32(dst, make([]float32, 3), make([]float32, 6), 2, 3, 2) }},
		{"F32 negative k", "gemm.F32: negative dimension 2×-1", func(dst []float32) { F32(dst, nil, nil, 2, 3, -1) }},
		{"F32 overflow", "gemm.F32: dimension", func(dst []float32) { F32(dst, nil, nil, 1<<40, 1<<40, 1<<40) }},
		{"NewInt8 short w", "gemm.NewInt8: w has 5 elements, 3×2 needs 6", func([]float32) { NewInt8(make([]int8, 5), make([]float32, 3), 3, 2) }},
		{"NewInt8 short scale", "gemm.NewInt8: scale has 2 elements, 3×1 needs 3", func([]float32) { NewInt8(make([]int8, 6), make([]float32, 2), 3, 2) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i := range buf {
				buf[i] = sentinel
			}
			got := panicOf(func() { tt.f(buf) })
			if !strings.HasPrefix(got, tt.want) {
				t.Errorf("panic %q, want %q", got, tt.want)
			}
			for i, v := range buf {
				if v != sentinel {
					t.Fatalf("dst[%d] written: %g", i, v)
				}
			}
		})
	}
}

// FuzzArguments calls each product with shapes and slice lengths that may
// not match: it must panic with a message of its own exactly when a slice
// is too short or a dimension negative, and otherwise be right.
func FuzzArguments(f *testing.F) {
	f.Add(uint8(0), int8(2), int8(3), int8(4), uint8(8), uint8(12), uint8(6), true)
	f.Add(uint8(1), int8(7), int8(17), int8(1), uint8(7), uint8(17), uint8(119), false)
	f.Add(uint8(2), int8(-1), int8(3), int8(0), uint8(0), uint8(0), uint8(0), false)
	f.Fuzz(func(t *testing.T, op uint8, m, n, k int8, la, lb, ld uint8, withBias bool) {
		a, b, dst := make([]float32, la), make([]float32, lb), withSentinel(int(ld))
		for i := range a {
			a[i] = float32(i%7) - 3
		}
		for i := range b {
			b[i] = float32(i%5) - 2
		}
		M, N, K := int(m), int(n), int(k)
		bad := M < 0 || N < 0 || K < 0 || len(a) < M*K || len(dst)-3 < M*N
		var run func()
		var term func(i, j, p int) float64
		switch op % 3 {
		case 0:
			bad = bad || len(b) < N*K
			run = func() { F32T(dst[:len(dst)-3], a, b, M, N, K) }
			term = func(i, j, p int) float64 { return float64(a[i*K+p] * b[j*K+p]) }
		case 1:
			bad = bad || len(b) < K*N
			run = func() { F32(dst[:len(dst)-3], a, b, M, N, K) }
			term = func(i, j, p int) float64 { return float64(a[i*K+p] * b[p*N+j]) }
		default:
			if N < 0 || K < 0 {
				return // NewInt8's own check, tested above
			}
			w := make([]int8, N*K)
			for i := range w {
				w[i] = int8(i%9) - 4
			}
			scale := make([]float32, N)
			for j := range scale {
				scale[j] = 1
			}
			W := NewInt8(w, scale, N, K)
			var bias []float32
			if withBias {
				bias = b
				bad = bad || len(b) < N
			}
			run = func() { W.MulT(dst[:len(dst)-3], a, M, bias) }
			term = func(i, j, p int) float64 { return float64(a[i*K+p]) * float64(w[j*K+p]) }
		}
		msg := panicOf(run)
		if bad != (msg != "") {
			t.Fatalf("op %d m=%d n=%d k=%d lengths %d %d %d: panic %q, want one: %v", op%3, M, N, K, la, lb, ld, msg, bad)
		}
		if bad {
			if !strings.HasPrefix(msg, "gemm.") {
				t.Fatalf("panic %q is not gemm's own", msg)
			}
			return
		}
		checkProduct(t, dst, M, N, K, term, func(j int) float64 {
			if op%3 == 2 && withBias {
				return float64(b[j])
			}
			return 0
		})
	})
}
