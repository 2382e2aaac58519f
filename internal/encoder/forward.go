package encoder

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// SetMaxWorkers bounds the goroutines that one Embed or EmbedIDs call runs
// the encoder on to n; n ≤ 0 restores the default, GOMAXPROCS. A caller
// that embeds in the background may leave cores to the rest of its work
// this way.
func (m *Model) SetMaxWorkers(n int) {
	m.maxWorkers.Store(int32(max(n, 0)))
}

// workers returns how many goroutines a forward pass may use.
func (m *Model) workers() int {
	if n := int(m.maxWorkers.Load()); n > 0 {
		return min(n, runtime.GOMAXPROCS(0))
	}
	return runtime.GOMAXPROCS(0)
}

// rowBlock is the number of rows each micro-kernel call of gemm computes:
// a worker's rows are a multiple of it, so that cutting the rows among
// workers computes no more padded rows than one worker would.
const rowBlock = 6

// workspace holds a forward pass's buffers: the hidden states x, the
// queries, keys and values (q is also the output of each layer's two
// projections back to the hidden size), attention's context, the
// intermediate layer's activations, and one attention scratch per worker.
// Workspaces are kept between calls in a pool.
type workspace struct {
	x, q, k, v, ctx, wide []float32
	attn                  []*attnBuf
}

var workspaces = sync.Pool{New: func() any { return new(workspace) }}

// grow returns b with length n, reusing its memory when it has room; its
// contents are undefined.
func grow(b []float32, n int) []float32 {
	if cap(b) < n {
		return make([]float32, n)
	}
	return b[:n]
}

// forward runs the encoder over seqs, packed one after another, on up to
// workers goroutines, and sets out[s] to the pooled, normalised vector of
// seqs[s]. Workers take the rows in blocks, each through every step that
// needs only its rows (the products with the weights, layer norms, GELU),
// and attention one sequence and head at a time; the vectors are the same
// for any number of workers.
func (m *Model) forward(seqs [][]int32, out [][]float32, workers int) {
	m.packWeights()
	h, inter, heads := m.cfg.Hidden, m.cfg.Intermediate, m.cfg.Heads
	total, longest := 0, 0
	for _, s := range seqs {
		total += len(s)
		longest = max(longest, len(s))
	}
	// bounds cuts the rows into parts of whole blocks, as evenly as they
	// go, one per worker.
	blocks := (total + rowBlock - 1) / rowBlock
	parts := max(1, min(workers, blocks))
	bounds := make([]int, parts+1)
	for p := range parts {
		bounds[p+1] = min(total, (blocks*(p+1)/parts)*rowBlock)
	}

	ws := workspaces.Get().(*workspace)
	defer workspaces.Put(ws)
	x := grow(ws.x, total*h)
	q, k, v := grow(ws.q, total*h), grow(ws.k, total*h), grow(ws.v, total*h)
	ctx, wide := grow(ws.ctx, total*h), grow(ws.wide, total*inter)
	ws.x, ws.q, ws.k, ws.v, ws.ctx, ws.wide = x, q, k, v, ctx, wide
	items := len(seqs) * heads
	for len(ws.attn) < min(parts, items) {
		ws.attn = append(ws.attn, new(attnBuf))
	}
	for _, b := range ws.attn[:min(parts, items)] {
		b.grow(longest, h/heads)
	}
	starts := make([]int, len(seqs))
	for i, t := 0, 0; i < len(seqs); i++ {
		starts[i] = t
		t += len(seqs[i])
	}

	eps := m.cfg.LayerNormEps
	qkv := func(l *layer, lo, hi int) {
		l.q.apply(q[lo*h:], x[lo*h:], hi-lo)
		l.k.apply(k[lo*h:], x[lo*h:], hi-lo)
		l.v.apply(v[lo*h:], x[lo*h:], hi-lo)
	}
	byRows := func(f func(lo, hi int)) {
		run(parts, func(p int) {
			if lo, hi := bounds[p], bounds[p+1]; lo < hi {
				f(lo, hi)
			}
		})
	}
	byRows(func(lo, hi int) {
		m.embed(x, seqs, starts, lo, hi)
		addLayerNorm(x[lo*h:hi*h], nil, hi-lo, h, m.lnG, m.lnB, eps)
		qkv(&m.layers[0], lo, hi)
	})
	for li := range m.layers {
		l := &m.layers[li]
		var next atomic.Int64
		run(min(parts, items), func(p int) {
			for it := int(next.Add(1) - 1); it < items; it = int(next.Add(1) - 1) {
				s, hd := it/heads, it%heads
				o := starts[s] * h
				attendHead(ctx[o:], q[o:], k[o:], v[o:], ws.attn[p], len(seqs[s]), h, heads, hd)
			}
		})
		byRows(func(lo, hi int) {
			rows := hi - lo
			xr := x[lo*h : hi*h]
			l.o.apply(q[lo*h:], ctx[lo*h:], rows)
			addLayerNorm(xr, q[lo*h:hi*h], rows, h, l.ln1G, l.ln1B, eps)
			l.in.apply(wide[lo*inter:], xr, rows)
			gelu(wide[lo*inter : hi*inter])
			l.out.apply(q[lo*h:], wide[lo*inter:], rows)
			addLayerNorm(xr, q[lo*h:hi*h], rows, h, l.ln2G, l.ln2B, eps)
			if li+1 < len(m.layers) {
				qkv(&m.layers[li+1], lo, hi)
			}
		})
	}

	for si, s := range seqs {
		off := starts[si]
		vec := make([]float32, h)
		if m.cfg.Pooling == PoolCLS {
			copy(vec, x[off*h:(off+1)*h])
		} else {
			for i := range len(s) {
				for d, v := range x[(off+i)*h : (off+i+1)*h] {
					vec[d] += v
				}
			}
		}
		normalize(vec)
		out[si] = vec
	}
}

// embed sets rows lo to hi of x to their tokens' embeddings: word +
// position + token type 0. starts[s] is the row of seqs[s]'s first token.
func (m *Model) embed(x []float32, seqs [][]int32, starts []int, lo, hi int) {
	h := m.cfg.Hidden
	tr := m.typ.F32[:h]
	s := 0
	for t := lo; t < hi; t++ {
		for s+1 < len(starts) && starts[s+1] <= t {
			s++
		}
		p := t - starts[s]
		id := seqs[s][p]
		row := x[t*h : (t+1)*h]
		ws, ps := m.word.Scale[id], m.pos.Scale[p]
		wr, pr := m.word.Q8[int(id)*h:int(id+1)*h], m.pos.Q8[p*h:(p+1)*h]
		for d := range row {
			row[d] = float32(wr[d])*ws + float32(pr[d])*ps + tr[d]
		}
	}
}

// run calls f(0), …, f(n-1) on n goroutines, f(0) on the caller's, and
// returns when they all have.
func run(n int, f func(p int)) {
	if n <= 1 {
		f(0)
		return
	}
	var wg sync.WaitGroup
	for p := 1; p < n; p++ {
		wg.Go(func() { f(p) })
	}
	f(0)
	wg.Wait()
}
