package encoder

import (
	"math"
	"sync"
)

// addLayerNorm sets each row of x (rows×cols) to the layer norm of x + y
// (y nil: of x), with the gains g and biases b: the residual and the norm
// in one pass over each row.
//
//go:norace
func addLayerNorm(x, y []float32, rows, cols int, g, b []float32, eps float64) {
	for i := range rows {
		row := x[i*cols : (i+1)*cols]
		if y != nil {
			add := y[i*cols : (i+1)*cols]
			for j := range row {
				row[j] += add[j]
			}
		}
		var sum float64
		for _, v := range row {
			sum += float64(v)
		}
		mean := sum / float64(cols)
		var sq float64
		for _, v := range row {
			d := float64(v) - mean
			sq += d * d
		}
		inv := float32(1 / math.Sqrt(sq/float64(cols)+eps))
		m := float32(mean)
		for j, v := range row {
			row[j] = (v-m)*inv*g[j] + b[j]
		}
	}
}

// geluRange and geluStep bound the table gelu interpolates in: below
// -geluRange GELU is 0 to float32 precision, above it is x.
const (
	geluRange = 10
	geluSteps = 512 // per unit
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
		switch {
		case v > -geluRange && v < geluRange:
			p := (v + geluRange) * geluSteps
			p = min(p, last)
			n := int(p)
			f := p - float32(n)
			x[i] = t[n] + f*(t[n+1]-t[n])
		case v <= -geluRange:
			x[i] = 0
		}
		// Above geluRange GELU(x) is x; NaN stays NaN.
	}
}

// softmax sets x to its softmax.
//
//go:norace
func softmax(x []float32) {
	big := x[0]
	for _, v := range x[1:] {
		big = max(big, v)
	}
	var sum float32
	for i, v := range x {
		e := float32(math.Exp(float64(v - big)))
		x[i] = e
		sum += e
	}
	inv := 1 / sum
	for i := range x {
		x[i] *= inv
	}
}
