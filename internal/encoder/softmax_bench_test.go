package encoder

import (
	"math"
	"math/rand/v2"
	"testing"
)

// BenchmarkSoftmax compares softmax with one that calls math.Exp, over
// the 256 scores of one query.
func BenchmarkSoftmax(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	src := make([]float32, 256)
	for i := range src {
		src[i] = r.Float32()*20 - 10
	}
	x := make([]float32, len(src))
	b.Run("expNeg", func(b *testing.B) {
		for b.Loop() {
			copy(x, src)
			softmax(x, 1)
		}
	})
	b.Run("math.Exp", func(b *testing.B) {
		for b.Loop() {
			copy(x, src)
			big := x[0]
			for _, v := range x[1:] {
				big = max(big, v)
			}
			var sum float32
			for i, v := range x {
				x[i] = float32(math.Exp(float64(v - big)))
				sum += x[i]
			}
			for i := range x {
				x[i] /= sum
			}
		}
	})
}
