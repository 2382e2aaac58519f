package gemm

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchImpls are the implementations the benchmarks compare: those of
// impls and, as a yardstick, naive, a plain triple loop.
func benchImpls() []*impl {
	return append(impls(), naiveImpl)
}

// naiveImpl marks the plain triple loop of naiveMulT, naiveF32T and
// naiveF32 in the benchmarks; it has no kernels.
var naiveImpl = &impl{name: "naive"}

// flops reports the benchmark's speed, 2·m·n·k floating-point operations
// each time, in GFLOP per second of wall clock and per second of
// processor time since cpu0 (cpuSeconds when the loop began), which a
// busy machine slows less.
func flops(b *testing.B, m, n, k int, cpu0 float64) {
	f := float64(2*m*n*k) * float64(b.N) / 1e9
	b.ReportMetric(f/b.Elapsed().Seconds(), "GFLOP/s")
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(f/cpu, "GFLOP/cpu-s")
	}
}

func BenchmarkInt8_MulT(b *testing.B) {
	const m = 128
	for _, nk := range [][2]int{{384, 384}, {1536, 384}, {384, 1536}} {
		n, k := nk[0], nk[1]
		r := rand.New(rand.NewPCG(1, 2))
		scale := make([]float32, n)
		for j := range scale {
			scale[j] = 0.01
		}
		w := randI8(r, n*k)
		W := NewInt8(w, scale, n, k)
		a, bias, dst := randF32(r, m*k), randF32(r, n), make([]float32, m*n)
		for _, im := range benchImpls() {
			b.Run(fmt.Sprintf("%s/m=%d/n=%d/k=%d", im.name, m, n, k), func(b *testing.B) {
				old := current
				current = im
				defer func() { current = old }()
				cpu0 := cpuSeconds()
				for b.Loop() {
					if im == naiveImpl {
						naiveMulT(dst, a, w, scale, bias, m, n, k)
					} else {
						W.MulT(dst, a, m, bias)
					}
				}
				flops(b, m, n, k, cpu0)
			})
		}
	}
}

func BenchmarkF32T(b *testing.B) {
	for _, s := range [][3]int{{128, 128, 32}, {128, 128, 64}, {512, 512, 64}} {
		m, n, k := s[0], s[1], s[2]
		r := rand.New(rand.NewPCG(3, 4))
		x, y, dst := randF32(r, m*k), randF32(r, n*k), make([]float32, m*n)
		for _, im := range benchImpls() {
			b.Run(fmt.Sprintf("%s/m=%d/n=%d/k=%d", im.name, m, n, k), func(b *testing.B) {
				old := current
				current = im
				defer func() { current = old }()
				cpu0 := cpuSeconds()
				for b.Loop() {
					if im == naiveImpl {
						naiveF32T(dst, x, y, m, n, k)
					} else {
						F32T(dst, x, y, m, n, k)
					}
				}
				flops(b, m, n, k, cpu0)
			})
		}
	}
}

func BenchmarkF32(b *testing.B) {
	for _, s := range [][3]int{{128, 32, 128}, {128, 64, 128}, {512, 64, 512}} {
		m, n, k := s[0], s[1], s[2]
		r := rand.New(rand.NewPCG(5, 6))
		x, y, dst := randF32(r, m*k), randF32(r, k*n), make([]float32, m*n)
		for _, im := range benchImpls() {
			b.Run(fmt.Sprintf("%s/m=%d/n=%d/k=%d", im.name, m, n, k), func(b *testing.B) {
				old := current
				current = im
				defer func() { current = old }()
				cpu0 := cpuSeconds()
				for b.Loop() {
					if im == naiveImpl {
						naiveF32(dst, x, y, m, n, k)
					} else {
						F32(dst, x, y, m, n, k)
					}
				}
				flops(b, m, n, k, cpu0)
			})
		}
	}
}

// naiveMulT is Int8.MulT as a plain triple loop over the row-major w.
func naiveMulT(dst, a []float32, w []int8, scale, bias []float32, m, n, k int) {
	for i := range m {
		for j := range n {
			var s float32
			for p := range k {
				s += a[i*k+p] * float32(w[j*k+p])
			}
			dst[i*n+j] = s*scale[j] + bias[j]
		}
	}
}

// naiveF32T is F32T as a plain triple loop.
func naiveF32T(dst, a, b []float32, m, n, k int) {
	for i := range m {
		for j := range n {
			var s float32
			for p := range k {
				s += a[i*k+p] * b[j*k+p]
			}
			dst[i*n+j] = s
		}
	}
}

// naiveF32 is F32 as a plain triple loop, in the order that reads b by
// rows.
func naiveF32(dst, a, b []float32, m, n, k int) {
	clear(dst[:m*n])
	for i := range m {
		for p := range k {
			x := a[i*k+p]
			for j := range n {
				dst[i*n+j] += x * b[p*n+j]
			}
		}
	}
}
