package gemm

import "sync"

// impl is one set of micro-kernels; the driver below cuts every product
// into the tiles they compute.
type impl struct {
	name string
	// f32 sets the 6×16 tile c (row stride ldc) to a·b·scale + bias, where
	// a is 6 rows of k (row stride lda) and b a packed panel: k groups of
	// 16 float32, group p holding row p of the tile's 16 columns.
	f32 func(k int, a []float32, lda int, b, c []float32, ldc int, scale, bias *[tileN]float32)
	// i8 does the same from an int8 panel; nil widens the panel into
	// float32 with widen and calls f32.
	i8    func(k int, a []float32, lda int, b []int8, c []float32, ldc int, scale, bias *[tileN]float32)
	widen func(dst []float32, src []int8)
}

// blockBytes bounds the rows of a that one pass over the panels reads, so
// that they stay in the core's level 2 cache while each panel, in level 1,
// meets all of them.
const blockBytes = 192 << 10

var (
	ones  = [tileN]float32{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
	zeros [tileN]float32
)

// scratch holds buffers of float32 between calls.
var scratch = sync.Pool{New: func() any { return new([]float32) }}

// getScratch returns a buffer of n float32 from the pool, its contents
// undefined; putScratch gives it back.
func getScratch(n int) *[]float32 {
	p := scratch.Get().(*[]float32)
	if cap(*p) < n {
		*p = make([]float32, n)
	}
	*p = (*p)[:n]
	return p
}

func putScratch(p *[]float32) { scratch.Put(p) }

// tiles computes dst[m×n] (row-major, compact) tile by tile from a[m×k]:
// prep(j) readies panel j, then tile computes each of its tiles with the
// scale and bias of its 16 columns. Rows past m are read from zeros and
// columns past n written to a spare tile, so that the kernels only ever
// see whole tiles.
func tiles(dst, a []float32, m, n, k int, scale, bias []float32,
	prep func(j int), tile func(j int, a []float32, lda int, c []float32, ldc int, s, b *[tileN]float32)) {
	groups := (m + tileM - 1) / tileM
	panels := (n + tileN - 1) / tileN
	var tail *[]float32
	if m%tileM != 0 {
		tail = getScratch(tileM * k)
		defer putScratch(tail)
		r := m - m%tileM
		copy(*tail, a[r*k:m*k])
		clear((*tail)[(m-r)*k:])
	}
	block := max(1, blockBytes/(tileM*4*max(k, 1)))
	blocks := (groups + block - 1) / block
	block = (groups + blocks - 1) / blocks // as many groups in each block
	var spare [tileM * tileN]float32
	var edgeScale, edgeBias [tileN]float32
	for g0 := 0; g0 < groups; g0 += block {
		g1 := min(groups, g0+block)
		for j := range panels {
			prep(j)
			cols := min(tileN, n-j*tileN)
			s, b := &ones, &zeros
			if scale != nil {
				if cols == tileN {
					s = (*[tileN]float32)(scale[j*tileN:])
				} else {
					copy(edgeScale[:], scale[j*tileN:])
					s = &edgeScale
				}
			}
			if bias != nil {
				if cols == tileN {
					b = (*[tileN]float32)(bias[j*tileN:])
				} else {
					clear(edgeBias[:])
					copy(edgeBias[:], bias[j*tileN:])
					b = &edgeBias
				}
			}
			for g := g0; g < g1; g++ {
				r := g * tileM
				rows := min(tileM, m-r)
				ag := a[r*k:]
				if rows < tileM {
					ag = *tail
				}
				if rows == tileM && cols == tileN {
					tile(j, ag, k, dst[r*n+j*tileN:], n, s, b)
					continue
				}
				tile(j, ag, k, spare[:], tileN, s, b)
				for i := range rows {
					copy(dst[(r+i)*n+j*tileN:(r+i)*n+j*tileN+cols], spare[i*tileN:i*tileN+cols])
				}
			}
		}
	}
}

// mulT computes w.MulT once the arguments are checked; bias is nil or n
// long.
func (im *impl) mulT(w *Int8, dst, a []float32, m int, bias []float32) {
	n, k := w.n, w.k
	if k == 0 {
		fill(dst, bias, m, n)
		return
	}
	if im.i8 != nil {
		tiles(dst, a, m, n, k, w.scale, bias, func(int) {},
			func(j int, a []float32, lda int, c []float32, ldc int, s, b *[tileN]float32) {
				im.i8(k, a, lda, w.panel(j), c, ldc, s, b)
			})
		return
	}
	buf := getScratch(tileN * k)
	defer putScratch(buf)
	panel := *buf
	tiles(dst, a, m, n, k, w.scale, bias,
		func(j int) { im.widen(panel, w.panel(j)) },
		func(_ int, a []float32, lda int, c []float32, ldc int, s, b *[tileN]float32) {
			im.f32(k, a, lda, panel, c, ldc, s, b)
		})
}

// mulF32 computes F32T (bt) or F32 once the arguments are checked.
func (im *impl) mulF32(dst, a, b []float32, m, n, k int, bt bool) {
	if k == 0 {
		clear(dst)
		return
	}
	panels := (n + tileN - 1) / tileN
	buf := getScratch(panels * tileN * k)
	defer putScratch(buf)
	packed := *buf
	if bt {
		packT(packed, b, n, k)
	} else {
		pack(packed, b, n, k)
	}
	tiles(dst, a, m, n, k, nil, nil, func(int) {},
		func(j int, a []float32, lda int, c []float32, ldc int, s, bias *[tileN]float32) {
			im.f32(k, a, lda, packed[j*tileN*k:(j+1)*tileN*k], c, ldc, s, bias)
		})
}

// fill sets each of the m rows of dst[m×n] to bias, or to zeros.
func fill(dst, bias []float32, m, n int) {
	if bias == nil {
		clear(dst)
		return
	}
	for i := range m {
		copy(dst[i*n:(i+1)*n], bias)
	}
}

// pack packs b[k×n] into panels of 16 columns, zeros past column n.
func pack(dst, b []float32, n, k int) {
	for j := 0; j*tileN < n; j++ {
		cols := min(tileN, n-j*tileN)
		p := dst[j*tileN*k : (j+1)*tileN*k]
		for r := range k {
			row := p[r*tileN : r*tileN+tileN]
			copy(row, b[r*n+j*tileN:r*n+j*tileN+cols])
			clear(row[cols:])
		}
	}
}

// packT packs b[n×k]ᵀ into panels of 16 columns, zeros past column n:
// group p of panel j holds column p of rows 16j…16j+15 of b.
func packT(dst, b []float32, n, k int) {
	for j := 0; j*tileN < n; j++ {
		cols := min(tileN, n-j*tileN)
		p := dst[j*tileN*k : (j+1)*tileN*k]
		if cols < tileN {
			clear(p)
		}
		for c := range cols {
			row := b[(j*tileN+c)*k : (j*tileN+c)*k+k]
			for r, v := range row {
				p[r*tileN+c] = v
			}
		}
	}
}
