package encoder

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAttend compares attend with the plain definition of attention, for
// odd and even lengths and lengths that leave every remainder of its
// blocks.
func TestAttend(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const h, heads = 12, 3
	dh := h / heads
	for n := 1; n <= 9; n++ {
		rnd := func() []float32 {
			v := make([]float32, n*h)
			for i := range v {
				v[i] = r.Float32()*4 - 2
			}
			return v
		}
		q, k, v := rnd(), rnd(), rnd()
		got := make([]float32, n*h)
		attend(got, q, k, v, newAttnBuf(n, dh), n, h, heads)
		for hd := range heads {
			c := hd * dh
			for i := range n {
				w := make([]float64, n)
				var sum float64
				for j := range n {
					var dot float64
					for d := range dh {
						dot += float64(q[i*h+c+d]) * float64(k[j*h+c+d])
					}
					w[j] = math.Exp(dot / math.Sqrt(float64(dh)))
					sum += w[j]
				}
				for d := range dh {
					var want float64
					for j := range n {
						want += w[j] / sum * float64(v[j*h+c+d])
					}
					if diff := math.Abs(float64(got[i*h+c+d]) - want); diff > 1e-5 {
						t.Fatalf("n=%d head %d token %d [%d]: %v, want %v", n, hd, i, d, got[i*h+c+d], want)
					}
				}
			}
		}
	}
}
