package encoder

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// distilBatch is how many one-token passages one forward pass of Distil
// runs.
const distilBatch = 256

// Distil makes a static embedding of m's vocabulary, as model2vec does:
// each token runs through the model as a passage of its own ([CLS], the
// token, [SEP]) and is pooled as the model pools; the vectors are centred
// and projected on their dims principal components; each is weighted by
// a/(a+p), p the token's frequency by Zipf's law on its rank in the
// vocabulary (a = 1e-4). WriteStatic writes them, quantized.
// progress, when not nil, is told how many tokens have run. The result is
// the same on any number of cores. It returns an error for dims outside 1
// to m's hidden size, or ctx's error.
func (m *Model) Distil(ctx context.Context, dims int, progress func(done, total int)) (Tensor, error) {
	n, h := len(m.cfg.Tokenizer.Vocab), m.cfg.Hidden
	if dims < 1 || dims > h {
		return Tensor{}, fmt.Errorf("distil to %d dimensions: want 1 to %d", dims, h)
	}
	vecs := make([][]float32, n)
	for lo := 0; lo < n; lo += distilBatch {
		if err := ctx.Err(); err != nil {
			return Tensor{}, err
		}
		hi := min(n, lo+distilBatch)
		seqs := make([][]int32, hi-lo)
		for i := range seqs {
			seqs[i] = []int32{m.tok.cls, int32(lo + i), m.tok.sep}
		}
		m.forward(seqs, vecs[lo:hi], m.workers())
		if progress != nil {
			progress(hi, n)
		}
	}
	mean, axes := principalAxes(vecs, dims)
	var zipf float64
	for r := range n {
		zipf += 1 / float64(r+2)
	}
	const a = 1e-4
	out := make([]float32, n*dims)
	for i, v := range vecs {
		p := 1 / (float64(i+2) * zipf)
		w := a / (a + p)
		row := out[i*dims : (i+1)*dims]
		for k, axis := range axes {
			var s float64
			for j, x := range v {
				s += (float64(x) - mean[j]) * axis[j]
			}
			row[k] = float32(w * s)
		}
	}
	return Tensor{Name: "static", Rows: n, Cols: dims, F32: out}, nil
}

// principalAxes returns the mean of vecs and their k principal axes, the
// eigenvectors of their covariance of the largest eigenvalues, largest
// first, each signed so that its largest component is positive.
func principalAxes(vecs [][]float32, k int) (mean []float64, axes [][]float64) {
	d := len(vecs[0])
	mean = make([]float64, d)
	for _, v := range vecs {
		for j, x := range v {
			mean[j] += float64(x)
		}
	}
	for j := range mean {
		mean[j] /= float64(len(vecs))
	}
	cov := make([][]float64, d)
	for i := range cov {
		cov[i] = make([]float64, d)
	}
	c := make([]float64, d)
	for _, v := range vecs {
		for j, x := range v {
			c[j] = float64(x) - mean[j]
		}
		for i := range d {
			row := cov[i]
			for j := i; j < d; j++ {
				row[j] += c[i] * c[j]
			}
		}
	}
	for i := range d {
		for j := i; j < d; j++ {
			cov[i][j] /= float64(len(vecs))
			cov[j][i] = cov[i][j]
		}
	}
	vals, vecsOf := jacobiEigen(cov)
	order := make([]int, d)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case vals[a] > vals[b]:
			return -1
		case vals[a] < vals[b]:
			return 1
		}
		return 0
	})
	for _, c := range order[:k] {
		axis := make([]float64, d)
		big := 0
		for j := range d {
			axis[j] = vecsOf[j][c]
			if math.Abs(axis[j]) > math.Abs(axis[big]) {
				big = j
			}
		}
		if axis[big] < 0 {
			for j := range axis {
				axis[j] = -axis[j]
			}
		}
		axes = append(axes, axis)
	}
	return mean, axes
}

// jacobiEigen returns the eigenvalues of the symmetric matrix a, which it
// overwrites, and its eigenvectors as the columns of a matrix, by cyclic
// Jacobi rotations until the off-diagonal entries are negligible.
func jacobiEigen(a [][]float64) (vals []float64, v [][]float64) {
	n := len(a)
	v = make([][]float64, n)
	for i := range v {
		v[i] = make([]float64, n)
		v[i][i] = 1
	}
	for sweep := 0; sweep < 100; sweep++ {
		var off, diag float64
		for i := range n {
			diag += a[i][i] * a[i][i]
			for j := i + 1; j < n; j++ {
				off += a[i][j] * a[i][j]
			}
		}
		if off <= 1e-30*diag || off == 0 {
			break
		}
		for p := 0; p < n-1; p++ {
			for q := p + 1; q < n; q++ {
				apq := a[p][q]
				if math.Abs(apq) < 1e-300 {
					continue
				}
				theta := (a[q][q] - a[p][p]) / (2 * apq)
				t := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for k := range n {
					akp, akq := a[k][p], a[k][q]
					a[k][p], a[k][q] = c*akp-s*akq, s*akp+c*akq
				}
				for k := range n {
					apk, aqk := a[p][k], a[q][k]
					a[p][k], a[q][k] = c*apk-s*aqk, s*apk+c*aqk
				}
				for k := range n {
					vkp, vkq := v[k][p], v[k][q]
					v[k][p], v[k][q] = c*vkp-s*vkq, s*vkp+c*vkq
				}
			}
		}
	}
	vals = make([]float64, n)
	for i := range n {
		vals[i] = a[i][i]
	}
	return vals, v
}
