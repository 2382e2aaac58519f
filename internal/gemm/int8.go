package gemm

// tileM and tileN are the rows and columns of the tile each micro-kernel
// call computes; a weight panel holds tileN output rows.
const (
	tileM = 6
	tileN = 16
)

// Int8 is a weight matrix of n rows (outputs) by k columns (inputs),
// stored as int8 with one float32 scale per row, packed for the kernel.
// Row j stands for the float32 row w[j][·]·scale[j]. An Int8 is read-only
// once made and safe for concurrent use.
type Int8 struct {
	n, k int
	// panels holds the rows 16 at a time: panel j is k groups of 16 int8,
	// group p holding column p of rows 16j…16j+15 (zeros past row n).
	panels []int8
	// scale holds the rows' scales, zeros past row n, to a multiple of 16.
	scale []float32
}

// NewInt8 packs w, an n×k row-major matrix of int8, with scale[j] the
// scale of row j, into an Int8 for MulT. It copies w and scale. It panics
// if w or scale is too short for n×k or n is negative.
func NewInt8(w []int8, scale []float32, n, k int) *Int8 {
	checkLen("NewInt8", "w", len(w), n, k)
	checkLen("NewInt8", "scale", len(scale), n, 1)
	np := (n + tileN - 1) / tileN
	m := &Int8{n: n, k: k, panels: make([]int8, np*tileN*k), scale: make([]float32, np*tileN)}
	copy(m.scale, scale[:n])
	for j := range n {
		row := w[j*k : j*k+k]
		base := (j/tileN)*tileN*k + j%tileN
		for p, v := range row {
			m.panels[base+p*tileN] = v
		}
	}
	return m
}

// Rows returns n, the number of rows (outputs) of the matrix.
func (w *Int8) Rows() int { return w.n }

// Cols returns k, the number of columns (inputs) of the matrix.
func (w *Int8) Cols() int { return w.k }

// panel returns the packed panel of rows 16j…16j+15.
func (w *Int8) panel(j int) []int8 {
	return w.panels[j*tileN*w.k : (j+1)*tileN*w.k]
}

// MulT computes dst[m×n] = a[m×k] · Wᵀ (each weight widened to float32
// and multiplied by its row's scale) + bias (nil for none). dst and a are
// row-major; dst is overwritten, its first m×n elements only. It panics if
// m is negative, if a, dst or a non-nil bias are too short for the shape,
// or if dst and a overlap.
func (w *Int8) MulT(dst, a []float32, m int, bias []float32) {
	checkLen("Int8.MulT", "a", len(a), m, w.k)
	checkLen("Int8.MulT", "dst", len(dst), m, w.n)
	if bias != nil {
		checkLen("Int8.MulT", "bias", len(bias), 1, w.n)
	}
	if m == 0 || w.n == 0 {
		return
	}
	checkOverlap("Int8.MulT", dst[:m*w.n], a[:m*w.k])
	if bias != nil {
		bias = bias[:w.n]
	}
	current.mulT(w, dst[:m*w.n], a[:m*w.k], m, bias)
}
