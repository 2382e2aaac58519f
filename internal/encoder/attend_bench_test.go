package encoder

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkAttend runs attention over one sequence of bge-small's shape
// and reports tokens per CPU-second, for one layer.
func BenchmarkAttend(b *testing.B) {
	const h, heads = 384, 12
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{8, 16, 32, 64, 128, 256} {
		rnd := func() []float32 {
			v := make([]float32, n*h)
			for i := range v {
				v[i] = r.Float32()*4 - 2
			}
			return v
		}
		q, k, v, ctx := rnd(), rnd(), rnd(), make([]float32, n*h)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ab := newAttnBuf(n, h/heads)
			cpu := cpuTime()
			for b.Loop() {
				attend(ctx, q, k, v, ab, n, h, heads)
			}
			b.ReportMetric(float64(n*b.N)/(cpuTime()-cpu).Seconds(), "tokens/cpu-s")
		})
	}
}
