package encoder

import (
	"math"
	"math/rand/v2"
	"slices"
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
		attend(got, q, k, v, newBuf(n, dh), n, h, heads)
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

// newBuf returns an attnBuf for n tokens and heads of dh.
func newBuf(n, dh int) *attnBuf {
	b := new(attnBuf)
	b.grow(n, dh)
	return b
}

// TestAddLayerNorm compares addLayerNorm with the plain definition, on rows
// whose mean is far from 0 beside their spread, where a one-pass variance
// would lose most in float32.
func TestAddLayerNorm(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	const rows, cols = 3, 384
	for _, offset := range []float32{0, 30, -200} {
		x, y := make([]float32, rows*cols), make([]float32, rows*cols)
		g, b := make([]float32, cols), make([]float32, cols)
		for i := range x {
			x[i], y[i] = offset+r.Float32()*2-1, r.Float32()-0.5
		}
		for j := range g {
			g[j], b[j] = 0.5+r.Float32(), r.Float32()-0.5
		}
		for _, add := range [][]float32{y, nil} {
			got := slices.Clone(x)
			addLayerNorm(got, add, rows, cols, g, b, 1e-12)
			for i := range rows {
				row := make([]float64, cols)
				var mean, variance float64
				for j := range row {
					row[j] = float64(x[i*cols+j])
					if add != nil {
						row[j] += float64(add[i*cols+j])
					}
					mean += row[j] / cols
				}
				for _, v := range row {
					variance += (v - mean) * (v - mean) / cols
				}
				for j, v := range row {
					want := (v-mean)/math.Sqrt(variance+1e-12)*float64(g[j]) + float64(b[j])
					if d := math.Abs(float64(got[i*cols+j]) - want); d > 1e-4 {
						t.Fatalf("offset %v, residual %v, [%d][%d]: %v, want %v", offset, add != nil, i, j, got[i*cols+j], want)
					}
				}
			}
		}
	}
}
