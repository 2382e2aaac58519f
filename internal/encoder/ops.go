package encoder

import (
	"math"
	"sync"
)

// addLayerNorm sets each row of x (rows×cols) to the layer norm of x + y
// (y nil: of x), with the gains g and biases b, in two passes over each
// row: the residual's sum with the sums of its numbers and of their
// squares (in float64, where E[x²]-E[x]² loses nothing that matters for
// a row of activations), then the norm.
//
//go:norace
func addLayerNorm(x, y []float32, rows, cols int, g, b []float32, eps float64) {
	g, b = g[:cols], b[:cols]
	for i := range rows {
		row := x[i*cols : (i+1)*cols]
		var sum, sq float64
		if y != nil {
			add := y[i*cols : (i+1)*cols]
			add = add[:len(row)]
			for j, v := range row {
				v += add[j]
				row[j] = v
				sum += float64(v)
				sq += float64(v) * float64(v)
			}
		} else {
			for _, v := range row {
				sum += float64(v)
				sq += float64(v) * float64(v)
			}
		}
		mean := sum / float64(cols)
		inv := float32(1 / math.Sqrt(max(sq/float64(cols)-mean*mean, 0)+eps))
		m := float32(mean)
		g, b := g[:len(row)], b[:len(row)]
		for j, v := range row {
			row[j] = (v-m)*inv*g[j] + b[j]
		}
	}
}

// geluRange and geluSteps bound the table gelu interpolates in: below
// -geluRange GELU is within 6e-9 of 0, above geluRange within 6e-9 of x.
// The table (12 KB) stays in the level 1 cache beside the activations.
const (
	geluRange = 6
	geluSteps = 256 // per unit
)

// geluTable holds GELU(x) = x·Φ(x), BERT's exact (erf) form, at every
// 1/geluSteps from -geluRange to geluRange.
var geluTable = sync.OnceValue(func() []float32 {
	t := make([]float32, 2*geluRange*geluSteps+2)
	for i := range t {
		x := float64(i)/geluSteps - geluRange
		t[i] = float32(0.5 * x * (1 + math.Erf(x/math.Sqrt2)))
	}
	return t
})

// gelu applies GELU to every element of x, interpolating linearly in
// geluTable (within 2e-6 of the exact function).
//
//go:norace
func gelu(x []float32) {
	t := geluTable()
	last := float32(len(t) - 2)
	for i, v := range x {
		p := (v + geluRange) * geluSteps
		switch {
		case p >= 0 && p < last:
			n := int(p)
			f := p - float32(n)
			a := t[n]
			x[i] = a + f*(t[n+1]-a)
		case p < 0:
			x[i] = 0
		}
		// Above geluRange GELU(x) is x; NaN stays NaN.
	}
}

// softmax sets x to the softmax of x·scale (scale > 0).
//
//go:norace
func softmax(x []float32, scale float32) {
	inv := 1 / expShift(x, maxOf(x), scale)
	for i := range x {
		x[i] *= inv
	}
}

// maxOf returns the largest of x, which is not empty, NaNs left out
// (unless x[0] is one). It compares instead of calling the built-in max,
// whose care for NaN and -0 costs a chain of branches on every number.
func maxOf(x []float32) float32 {
	big := x[0]
	for _, v := range x[1:] {
		if v > big {
			big = v
		}
	}
	return big
}

// expNeg returns e^x for x ≤ 0, as expShift computes it.
func expNeg(x float32) float32 {
	v := [1]float32{x}
	expShift(v[:], 0, 1)
	return v[0]
}

// expShift sets each x[i] to e^((x[i]-big)·scale), for x[i] ≤ big and
// scale > 0, and returns their sum. Each is within 3e-7 of it relatively:
// y = (x[i]-big)·scale is (64k + j)·ln 2/64 + f with j in [0, 64) and f in
// [-ln 2/128, ln 2/128] (64k + j rounded by adding 1.5·2²³, whose float32
// has no bits below the unit, and ln 2/64 in two parts, so that the
// product loses nothing); e^y is 2^k, made in the exponent's bits, times
// 2^(j/64) from a table, times e^f to the square of f. No branch depends
// on the numbers in the common case, so that a loop over random scores runs
// without mispredictions. Below -80 (e^-80 ≈ 2e-35) e^y is 0; NaN stays
// NaN.
//
//go:norace
func expShift(x []float32, big, scale float32) float32 {
	const (
		steps = 64
		toN   = steps * 1.442695040888963 // steps/ln 2
		lnHi  = 0.693359375 / steps
		lnLo  = -2.12194440e-4 / steps
		round = 1.5 * (1 << 23)
	)
	pow := &exp2Table
	var sum float32
	for i, v := range x {
		y := (v - big) * scale
		if !(y >= -80) {
			x[i] = expFar(y)
			sum += x[i]
			continue
		}
		t := y*toN + round
		fn := t - round
		n := int32(math.Float32bits(t) - math.Float32bits(round)) // fn as an int32
		f := y - fn*lnHi - fn*lnLo
		p := pow[n&(steps-1)] * (1 + f*(1+f*0.5))
		e := math.Float32frombits(math.Float32bits(p) + uint32(n>>6)<<23)
		x[i] = e
		sum += e
	}
	return sum
}

// exp2Table holds 2^(j/64) for j in [0, 64).
var exp2Table = func() (t [64]float32) {
	for j := range t {
		t[j] = float32(math.Exp2(float64(j) / 64))
	}
	return t
}()

// expFar is e^y below -80 (0) or of NaN (NaN), out of expShift's loop.
//
//go:noinline
func expFar(y float32) float32 {
	if y != y {
		return y
	}
	return 0
}
