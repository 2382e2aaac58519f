package encoder

import (
	"math"

	"github.com/wikid/wikid/internal/gemm"
)

// attnBuf holds attention's scratch for one head of one sequence: its
// queries, keys, values and context (n×dh each) and its scores (n×n).
type attnBuf struct {
	qh, kh, vh, ch, s, inv []float32
}

// grow readies b for sequences of up to n tokens and heads of dh.
func (b *attnBuf) grow(n, dh int) {
	b.qh, b.kh, b.vh, b.ch = grow(b.qh, n*dh), grow(b.kh, n*dh), grow(b.vh, n*dh), grow(b.ch, n*dh)
	b.s, b.inv = grow(b.s, n*n), grow(b.inv, n)
}

// attend sets ctx to the attention of one sequence of n tokens, head by
// head (attendHead). b holds at least n tokens.
func attend(ctx, q, k, v []float32, b *attnBuf, n, h, heads int) {
	for hd := range heads {
		attendHead(ctx, q, k, v, b, n, h, heads, hd)
	}
}

// attendHead sets head hd's part of ctx to the attention of one sequence
// of n tokens: each token's query against every key (gemm.F32T), scaled
// and softmaxed, weighing the values (gemm.F32). The softmax's division
// by each row's sum is left to the row of the context, dh numbers instead
// of n. q, k, v and ctx hold n rows of h from their start; b holds at
// least n tokens.
//
//go:norace
func attendHead(ctx, q, k, v []float32, b *attnBuf, n, h, heads, hd int) {
	dh := h / heads
	inv := float32(1 / math.Sqrt(float64(dh)))
	qh, kh, vh, ch, s, sums := b.qh[:n*dh], b.kh[:n*dh], b.vh[:n*dh], b.ch[:n*dh], b.s[:n*n], b.inv[:n]
	c := hd * dh
	for i := range n {
		copy(qh[i*dh:(i+1)*dh], q[i*h+c:][:dh])
		copy(kh[i*dh:(i+1)*dh], k[i*h+c:][:dh])
		copy(vh[i*dh:(i+1)*dh], v[i*h+c:][:dh])
	}
	gemm.F32T(s, qh, kh, n, n, dh)
	for i := range n {
		row := s[i*n : (i+1)*n]
		sums[i] = 1 / expShift(row, maxOf(row), inv)
	}
	gemm.F32(ch, s, vh, n, dh, n)
	for i, r := range sums {
		dst := ctx[i*h+c:][:dh]
		for d, x := range ch[i*dh : (i+1)*dh] {
			dst[d] = x * r
		}
	}
}
