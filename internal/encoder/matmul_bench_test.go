package encoder

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkMulInt8T multiplies m tokens by a layer's weights and reports
// multiply-adds per CPU-second (GMAC/cpu-s).
func BenchmarkMulInt8T(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, size := range [][3]int{{64, 384, 384}, {64, 1536, 384}, {64, 384, 1536}} {
		m, n, k := size[0], size[1], size[2]
		a, dst := make([]float32, m*k), make([]float32, m*n)
		for i := range a {
			a[i] = r.Float32()
		}
		w, scale, bias := make([]int8, n*k), make([]float32, n), make([]float32, n)
		for i := range w {
			w[i] = int8(r.IntN(255) - 127)
		}
		b.Run(fmt.Sprintf("%dx%dx%d", m, n, k), func(b *testing.B) {
			cpu := cpuTime()
			for b.Loop() {
				mulInt8T(dst, a, w, scale, bias, m, n, k)
			}
			b.ReportMetric(float64(m*n*k)*float64(b.N)/(cpuTime()-cpu).Seconds()/1e9, "GMAC/cpu-s")
		})
	}
}
