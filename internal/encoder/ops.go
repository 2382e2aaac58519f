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

// softmax sets x to the softmax of x·scale (scale > 0).
//
//go:norace
func softmax(x []float32, scale float32) {
	big := x[0]
	for _, v := range x[1:] {
		big = max(big, v)
	}
	var sum float32
	for i, v := range x {
		e := expNeg((v - big) * scale)
		x[i] = e
		sum += e
	}
	inv := 1 / sum
	for i := range x {
		x[i] *= inv
	}
}

// expNeg returns e^x for x ≤ 0, within 3e-7 of it relatively: x is
// n·ln 2 + f with f in [-ln 2/2, ln 2/2] (ln 2 in two parts, so that n·ln 2
// loses nothing), 2^n is made by the exponent's bits and e^f by its
// Taylor series to the 6th power. Below -80 (e^-80 ≈ 2e-35) it returns 0;
// NaN stays NaN.
func expNeg(x float32) float32 {
	if !(x >= -80) {
		if x != x {
			return x
		}
		return 0
	}
	const (
		log2e = 1.442695040888963
		ln2Hi = 0.693359375
		ln2Lo = -2.12194440e-4
	)
	t := x * log2e
	n := int32(t - 0.5) // t ≤ 0: rounds to the nearest, ties down
	if t-float32(n) > 0.5 {
		n++
	}
	fn := float32(n)
	f := x - fn*ln2Hi - fn*ln2Lo
	p := 1 + f*(1+f*(1.0/2+f*(1.0/6+f*(1.0/24+f*(1.0/120+f*(1.0/720))))))
	return math.Float32frombits(uint32(int32(math.Float32bits(p)) + n<<23))
}
