package encoder

// mulInt8T sets dst (m×n) to a (m×k) times the transpose of the int8
// matrix w (n×k, row j scaled by scale[j]), plus bias (n) when it is not
// nil: dst[i][j] = scale[j]·Σ a[i][p]·w[j][p] + bias[j].
//
// It widens four rows of w to float32 at a time and runs them against two
// rows of a at a time. It is the one place the encoder multiplies by its
// weights, so that a faster kernel can replace it.
//
//go:norace
func mulInt8T(dst, a []float32, w []int8, scale, bias []float32, m, n, k int) {
	_ = dst[m*n-1]
	_ = a[m*k-1]
	_ = w[n*k-1]
	panel := make([]float32, 4*k)
	for j := 0; j < n; j += 4 {
		nb := min(4, n-j)
		for r := range nb {
			row := w[(j+r)*k : (j+r+1)*k]
			p := panel[r*k : (r+1)*k]
			for x, v := range row {
				p[x] = float32(v)
			}
		}
		if nb < 4 {
			clear(panel[nb*k:])
		}
		w0, w1, w2, w3 := panel[:k], panel[k:2*k], panel[2*k:3*k], panel[3*k:4*k]
		i := 0
		for ; i+2 <= m; i += 2 {
			a0, a1 := a[i*k:(i+1)*k], a[(i+1)*k:(i+2)*k]
			a1 = a1[:len(a0)]
			w0, w1, w2, w3 := w0[:len(a0)], w1[:len(a0)], w2[:len(a0)], w3[:len(a0)]
			var s00, s01, s02, s03, s10, s11, s12, s13 float32
			for x, x0 := range a0 {
				x1 := a1[x]
				v0, v1, v2, v3 := w0[x], w1[x], w2[x], w3[x]
				s00 += x0 * v0
				s01 += x0 * v1
				s02 += x0 * v2
				s03 += x0 * v3
				s10 += x1 * v0
				s11 += x1 * v1
				s12 += x1 * v2
				s13 += x1 * v3
			}
			store(dst[i*n:], j, nb, scale, bias, s00, s01, s02, s03)
			store(dst[(i+1)*n:], j, nb, scale, bias, s10, s11, s12, s13)
		}
		if i < m {
			a0 := a[i*k : (i+1)*k]
			var s0, s1, s2, s3 float32
			for x := range k {
				x0 := a0[x]
				s0 += x0 * w0[x]
				s1 += x0 * w1[x]
				s2 += x0 * w2[x]
				s3 += x0 * w3[x]
			}
			store(dst[i*n:], j, nb, scale, bias, s0, s1, s2, s3)
		}
	}
}

// store writes the nb ≤ 4 sums s of one row of dst from column j, scaled
// and biased.
func store(row []float32, j, nb int, scale, bias []float32, s0, s1, s2, s3 float32) {
	s := [4]float32{s0, s1, s2, s3}
	for r := range nb {
		v := s[r] * scale[j+r]
		if bias != nil {
			v += bias[j+r]
		}
		row[j+r] = v
	}
}
