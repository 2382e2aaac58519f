package encoder

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkGelu applies gelu to one layer's intermediate activations for
// 64 tokens of bge-small (64×1536, normally distributed as they are) and
// reports nanoseconds per element of CPU time.
func BenchmarkGelu(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	src := make([]float32, 64*1536)
	for i := range src {
		src[i] = float32(r.NormFloat64() * 2)
	}
	x := make([]float32, len(src))
	cpu := cpuTime()
	for b.Loop() {
		copy(x, src)
		gelu(x)
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N*len(x)), "ns/elem-cpu")
}
