package encoder

import (
	"math"

	"github.com/wikid/wikid/internal/gemm"
)

// attnBuf holds attend's scratch for sequences of up to n tokens: one
// head's queries, keys, values and context (n×dh each) and its scores
// (n×n).
type attnBuf struct {
	qh, kh, vh, ch, s []float32
}

func newAttnBuf(n, dh int) *attnBuf {
	return &attnBuf{
		qh: make([]float32, n*dh), kh: make([]float32, n*dh), vh: make([]float32, n*dh),
		ch: make([]float32, n*dh), s: make([]float32, n*n),
	}
}

// attend sets ctx to the attention of one sequence of n tokens: for each
// head, each token's query against every key (gemm.F32T), scaled and
// softmaxed, weighing the values (gemm.F32). q, k, v and ctx hold n rows
// of h from their start; b holds at least n tokens.
//
//go:norace
func attend(ctx, q, k, v []float32, b *attnBuf, n, h, heads int) {
	dh := h / heads
	inv := float32(1 / math.Sqrt(float64(dh)))
	qh, kh, vh, ch, s := b.qh[:n*dh], b.kh[:n*dh], b.vh[:n*dh], b.ch[:n*dh], b.s[:n*n]
	for hd := range heads {
		c := hd * dh
		for i := range n {
			copy(qh[i*dh:(i+1)*dh], q[i*h+c:][:dh])
			copy(kh[i*dh:(i+1)*dh], k[i*h+c:][:dh])
			copy(vh[i*dh:(i+1)*dh], v[i*h+c:][:dh])
		}
		gemm.F32T(s, qh, kh, n, n, dh)
		for i := range n {
			softmax(s[i*n:(i+1)*n], inv)
		}
		gemm.F32(ch, s, vh, n, dh, n)
		for i := range n {
			copy(ctx[i*h+c:][:dh], ch[i*dh:(i+1)*dh])
		}
	}
}
