package semantic

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// fixedEmbedder embeds every text as one fixed vector.
type fixedEmbedder struct{ v []float32 }

func (e fixedEmbedder) Model() string    { return "fixed" }
func (e fixedEmbedder) Endpoint() string { return "memory" }
func (e fixedEmbedder) BatchSize() int   { return 64 }
func (e fixedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = append([]float32(nil), e.v...)
	}
	return out, nil
}

// BenchmarkNearest measures the exact search alone, in memory, on random
// vectors of 384 dimensions: one chunk per note.
func BenchmarkNearest(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			const dims = 384
			rng := rand.New(rand.NewPCG(1, 2))
			q := make([]float32, dims)
			for i := range q {
				q[i] = rng.Float32() - 0.5
			}
			x, err := Open(context.Background(), b.TempDir(), fixedEmbedder{q}, Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer x.Close(context.Background())
			hs := make([]hash, n)
			vecs := make([][]float32, n)
			for i := range n {
				hs[i] = hash{byte(i), byte(i >> 8), byte(i >> 16)}
				vecs[i] = make([]float32, dims)
				for j := range vecs[i] {
					vecs[i][j] = rng.Float32() - 0.5
				}
			}
			slots, err := x.vs.add(hs, vecs)
			if err != nil {
				b.Fatal(err)
			}
			for i := range n {
				e := &entry{path: fmt.Sprintf("notes/%06d", i), chunks: []*chunk{{hash: hs[i], slot: slots[i], start: 1, end: 3}}}
				x.byPath[e.path] = len(x.notes)
				x.notes = append(x.notes, e)
				x.chunks++
			}
			ctx := context.Background()
			for b.Loop() {
				if res, err := x.Nearest(ctx, "q", 10, nil); err != nil || len(res) != 10 {
					b.Fatal(len(res), err)
				}
			}
		})
	}
}
