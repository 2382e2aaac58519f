package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// forEachImpl runs f once with each implementation this build and
// processor can run in current, so that one go test checks the assembly
// and the plain-Go fallback alike.
func forEachImpl(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	for _, im := range impls() {
		t.Run(im.name, func(t *testing.T) {
			old := current
			current = im
			defer func() { current = old }()
			f(t)
		})
	}
}

// shapes are the m, n, k the tests multiply: ones, odd sizes, sizes a
// tile off a multiple of the tile, zero lengths and BERT-small's.
var shapes = [][3]int{
	{1, 1, 1}, {1, 1, 7}, {1, 17, 1}, {7, 1, 1}, {6, 16, 1}, {6, 16, 8}, {5, 15, 9},
	{7, 17, 33}, {12, 32, 64}, {13, 33, 65}, {23, 47, 31}, {31, 100, 3}, {50, 384, 32},
	{0, 5, 5}, {5, 0, 5}, {5, 5, 0}, {0, 0, 0}, {16, 384, 384}, {11, 1536, 384}, {7, 40, 1536},
}

// sentinel fills the elements of dst past those a product writes, which
// must keep it.
const sentinel = float32(-12345)

func randF32(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(r.NormFloat64())
	}
	return s
}

func randI8(r *rand.Rand, n int) []int8 {
	s := make([]int8, n)
	for i := range s {
		s[i] = int8(r.IntN(256) - 128)
	}
	return s
}

// withSentinel returns a slice of n numbers and 3 more, all sentinel.
func withSentinel(n int) []float32 {
	s := make([]float32, n+3)
	for i := range s {
		s[i] = sentinel
	}
	return s
}

// eps is float32's unit roundoff.
const eps = 1.0 / (1 << 24)

// checkProduct compares got[m×n] with the float64 product of a[m×k] and
// b, where at(i, j, p) is the pth term of element (i, j), within the
// rounding error a float32 sum of k terms may have: (k+2)·eps times the
// sum of their magnitudes. Past m×n, got must hold sentinels.
func checkProduct(t *testing.T, got []float32, m, n, k int, term func(i, j, p int) float64, add func(j int) float64) {
	t.Helper()
	bad := 0
	for i := range m {
		for j := range n {
			var want, mag float64
			for p := range k {
				x := term(i, j, p)
				want += x
				mag += math.Abs(x)
			}
			b := add(j)
			want += b
			mag += math.Abs(b)
			if d := math.Abs(float64(got[i*n+j]) - want); d > float64(k+2)*eps*mag || math.IsNaN(d) {
				if bad++; bad <= 5 {
					t.Errorf("[%d,%d] = %g, want %g (±%g)", i, j, got[i*n+j], want, float64(k+2)*eps*mag)
				}
			}
		}
	}
	for i, v := range got[m*n:] {
		if v != sentinel {
			t.Fatalf("element %d past %d×%d written: %g", m*n+i, m, n, v)
		}
	}
}

func TestInt8_MulT(t *testing.T) {
	forEachImpl(t, func(t *testing.T) {
		for _, sh := range shapes {
			m, n, k := sh[0], sh[1], sh[2]
			for _, withBias := range []bool{false, true} {
				t.Run(fmt.Sprintf("%dx%dx%d/bias=%v", m, n, k, withBias), func(t *testing.T) {
					r := rand.New(rand.NewPCG(uint64(m*1e6+n*1e3+k), 1))
					w := randI8(r, n*k)
					scale := make([]float32, n)
					for j := range scale {
						scale[j] = float32(r.Float64()*0.02 + 1e-4)
					}
					a := randF32(r, m*k)
					var bias []float32
					if withBias {
						bias = randF32(r, n)
					}
					dst := withSentinel(m * n)
					W := NewInt8(w, scale, n, k)
					if W.Rows() != n || W.Cols() != k {
						t.Fatalf("Rows, Cols = %d, %d, want %d, %d", W.Rows(), W.Cols(), n, k)
					}
					W.MulT(dst, a, m, bias)
					checkProduct(t, dst, m, n, k,
						func(i, j, p int) float64 {
							return float64(a[i*k+p]) * float64(w[j*k+p]) * float64(scale[j])
						},
						func(j int) float64 {
							if bias == nil {
								return 0
							}
							return float64(bias[j])
						})
				})
			}
		}
	})
}

func TestF32T(t *testing.T) {
	forEachImpl(t, func(t *testing.T) {
		for _, sh := range shapes {
			m, n, k := sh[0], sh[1], sh[2]
			t.Run(fmt.Sprintf("%dx%dx%d", m, n, k), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(m*1e6+n*1e3+k), 2))
				a, b := randF32(r, m*k), randF32(r, n*k)
				dst := withSentinel(m * n)
				F32T(dst, a, b, m, n, k)
				checkProduct(t, dst, m, n, k,
					func(i, j, p int) float64 { return float64(a[i*k+p]) * float64(b[j*k+p]) },
					func(int) float64 { return 0 })
			})
		}
	})
}

func TestF32(t *testing.T) {
	forEachImpl(t, func(t *testing.T) {
		for _, sh := range shapes {
			m, n, k := sh[0], sh[1], sh[2]
			t.Run(fmt.Sprintf("%dx%dx%d", m, n, k), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(m*1e6+n*1e3+k), 3))
				a, b := randF32(r, m*k), randF32(r, k*n)
				dst := withSentinel(m * n)
				F32(dst, a, b, m, n, k)
				checkProduct(t, dst, m, n, k,
					func(i, j, p int) float64 { return float64(a[i*k+p]) * float64(b[p*n+j]) },
					func(int) float64 { return 0 })
			})
		}
	})
}

// TestInt8_MulT_extremes multiplies the int8 extremes, where a kernel that
// widened without sign extension or saturated would be far off.
func TestInt8_MulT_extremes(t *testing.T) {
	forEachImpl(t, func(t *testing.T) {
		const m, n, k = 7, 18, 5
		w := make([]int8, n*k)
		for i := range w {
			w[i] = [...]int8{-128, 127, -1, 1, 0}[i%5]
		}
		scale := make([]float32, n)
		for j := range scale {
			scale[j] = float32(j + 1)
		}
		a := make([]float32, m*k)
		for i := range a {
			a[i] = float32(i%3) - 1
		}
		dst := withSentinel(m * n)
		NewInt8(w, scale, n, k).MulT(dst, a, m, nil)
		checkProduct(t, dst, m, n, k,
			func(i, j, p int) float64 { return float64(a[i*k+p]) * float64(w[j*k+p]) * float64(scale[j]) },
			func(int) float64 { return 0 })
	})
}

// TestConcurrent runs products of one Int8 from several goroutines at
// once; with -race it checks that they share nothing they write.
func TestConcurrent(t *testing.T) {
	forEachImpl(t, func(t *testing.T) {
		const m, n, k = 13, 40, 70
		r := rand.New(rand.NewPCG(9, 9))
		scale := make([]float32, n)
		for j := range scale {
			scale[j] = 0.01
		}
		W := NewInt8(randI8(r, n*k), scale, n, k)
		a := randF32(r, m*k)
		want := make([]float32, m*n)
		W.MulT(want, a, m, nil)
		done := make(chan []float32)
		for range 4 {
			go func() {
				got := make([]float32, m*n)
				for range 20 {
					W.MulT(got, a, m, nil)
				}
				done <- got
			}()
		}
		for range 4 {
			got := <-done
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("element %d = %g, want %g", i, got[i], want[i])
				}
			}
		}
	})
}
