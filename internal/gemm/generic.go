package gemm

// goImpl is the plain-Go micro-kernel, used where no assembly is built or
// the processor lacks what it needs.
var goImpl = &impl{name: "go", f32: kernelGo, widen: widenGo}

// kernelGo is impl.f32 in Go: each pair of rows meets four columns of the
// panel at a time, eight sums in registers, so that each number of a and b
// is loaded once per eight multiply-adds.
func kernelGo(k int, a []float32, lda int, b, c []float32, ldc int, scale, bias *[tileN]float32) {
	b = b[:k*tileN]
	for r := 0; r < tileM; r += 2 {
		a0 := a[r*lda : r*lda+k]
		a1 := a[(r+1)*lda : (r+1)*lda+k]
		c0 := c[r*ldc : r*ldc+tileN]
		c1 := c[(r+1)*ldc : (r+1)*ldc+tileN]
		for col := 0; col < tileN; col += 4 {
			var s00, s01, s02, s03, s10, s11, s12, s13 float32
			for p, x0 := range a0 {
				x1 := a1[p]
				q := b[p*tileN+col : p*tileN+col+4 : p*tileN+col+4]
				s00 += x0 * q[0]
				s01 += x0 * q[1]
				s02 += x0 * q[2]
				s03 += x0 * q[3]
				s10 += x1 * q[0]
				s11 += x1 * q[1]
				s12 += x1 * q[2]
				s13 += x1 * q[3]
			}
			c0[col] = s00*scale[col] + bias[col]
			c0[col+1] = s01*scale[col+1] + bias[col+1]
			c0[col+2] = s02*scale[col+2] + bias[col+2]
			c0[col+3] = s03*scale[col+3] + bias[col+3]
			c1[col] = s10*scale[col] + bias[col]
			c1[col+1] = s11*scale[col+1] + bias[col+1]
			c1[col+2] = s12*scale[col+2] + bias[col+2]
			c1[col+3] = s13*scale[col+3] + bias[col+3]
		}
	}
}

// widenGo is impl.widen in Go.
func widenGo(dst []float32, src []int8) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = float32(v)
	}
}
