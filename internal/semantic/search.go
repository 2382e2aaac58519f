package semantic

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/wikid/wikid/internal/wiki"
)

// Nearest returns the notes whose best chunk is nearest to the meaning of
// text, best first, at most limit, among those keep accepts. With a static
// model, the notes the model has not embedded yet are ranked by it and the
// two rankings interleaved (see static.go); without, they are left out. It
// returns the embedder's error when text cannot be embedded.
func (x *Index) Nearest(ctx context.Context, text string, limit int, keep func(string) bool) ([]wiki.Neighbour, error) {
	defer x.beginSearch()()
	text = strings.TrimSpace(text)
	q, err := x.queryVector(ctx, text)
	if err != nil {
		return nil, err
	}
	var qs []float32
	if x.opts.Static != nil {
		x.mu.RLock()
		waiting := len(x.static) > 0
		x.mu.RUnlock()
		if waiting {
			qs = x.staticQuery(ctx, text)
		}
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	near := x.scan(q, limit, keep, "")
	if qs == nil {
		return near, nil
	}
	return interleave(near, x.scanStatic(qs, limit, keep), limit), nil
}

// Related returns the notes nearest to the note at notePath: to the mean
// of its chunks' vectors.
func (x *Index) Related(ctx context.Context, notePath string, limit int, keep func(string) bool) ([]wiki.Neighbour, error) {
	defer x.beginSearch()()
	x.mu.RLock()
	defer x.mu.RUnlock()
	i, ok := x.byPath[notePath]
	if !ok {
		return nil, wiki.Errorf(wiki.CodeNotFound, "note %q is not in the semantic index", notePath)
	}
	var mean []float32
	for _, c := range x.notes[i].chunks {
		if c.slot < 0 {
			continue
		}
		if mean == nil {
			mean = make([]float32, x.vs.dims)
		}
		for j, v := range x.vs.vector(c.slot) {
			mean[j] += v
		}
	}
	if mean == nil {
		if len(x.notes[i].chunks) == 0 {
			return []wiki.Neighbour{}, nil // a note without text is near nothing
		}
		return nil, wiki.Errorf(wiki.CodeUnavailable, "note %q is not embedded yet (%d chunks wait for the embeddings endpoint)", notePath, len(x.texts)).
			WithHint("try again shortly; wiki_status shows how far the embedding is and the endpoint's last error")
	}
	normalize(mean)
	return x.scan(mean, limit, keep, notePath), nil
}

// parallelWork is how many multiply-adds a scan does before it is worth
// splitting across the cores: a wiki of about 5,000 chunks at 384
// dimensions.
const parallelWork = 2 << 20

// scan scores every note accepted by keep, but skip, by its best chunk,
// and returns the best limit: on every core for a large index, each
// scanning its own run of notes. The caller holds mu.
func (x *Index) scan(q []float32, limit int, keep func(string) bool, skip string) []wiki.Neighbour {
	if x.vs.dims == 0 || len(q) != x.vs.dims || limit <= 0 {
		return []wiki.Neighbour{}
	}
	parts := min(runtime.GOMAXPROCS(0), 8, max(1, x.chunks*x.vs.dims/parallelWork))
	if parts == 1 {
		return x.scanNotes(x.notes, q, limit, keep, skip)
	}
	tops := make([][]wiki.Neighbour, parts)
	var wg sync.WaitGroup
	for p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tops[p] = x.scanNotes(x.notes[p*len(x.notes)/parts:(p+1)*len(x.notes)/parts], q, limit, keep, skip)
		}()
	}
	wg.Wait()
	top := slices.Concat(tops...)
	slices.SortFunc(top, byScore)
	return top[:min(limit, len(top))]
}

// scanNotes is scan over some of the notes.
func (x *Index) scanNotes(notes []*entry, q []float32, limit int, keep func(string) bool, skip string) []wiki.Neighbour {
	top := make([]wiki.Neighbour, 0, limit+1)
	worst := float32(-2)
	for _, e := range notes {
		if keep != nil && !keep(e.path) || e.path == skip {
			continue
		}
		best, bestChunk := float32(-2), (*chunk)(nil)
		for _, c := range e.chunks {
			if c.slot < 0 {
				continue
			}
			if s := dot(q, x.vs.vector(c.slot)); s > best {
				best, bestChunk = s, c
			}
		}
		if bestChunk == nil || (len(top) == limit && best <= worst) {
			continue
		}
		n := wiki.Neighbour{Path: e.path, Score: float64(best), Start: int(bestChunk.start), End: int(bestChunk.end)}
		i, _ := slices.BinarySearchFunc(top, n, byScore)
		top = slices.Insert(top, i, n)
		if len(top) > limit {
			top = top[:limit]
		}
		if len(top) == limit {
			worst = float32(top[limit-1].Score)
		}
	}
	return top
}

// byScore orders neighbours best first, then by path.
func byScore(a, b wiki.Neighbour) int {
	switch {
	case a.Score > b.Score:
		return -1
	case a.Score < b.Score:
		return 1
	}
	return strings.Compare(a.Path, b.Path)
}

// dot returns the dot product of two vectors of one length, the cosine
// similarity of normalized ones.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+8 <= len(a); i += 8 {
		s0 += a[i]*b[i] + a[i+4]*b[i+4]
		s1 += a[i+1]*b[i+1] + a[i+5]*b[i+5]
		s2 += a[i+2]*b[i+2] + a[i+6]*b[i+6]
		s3 += a[i+3]*b[i+3] + a[i+7]*b[i+7]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}

// queryVector embeds a query, remembering the last ones: a search's next
// page, or the same question again, costs no request.
func (x *Index) queryVector(ctx context.Context, text string) ([]float32, error) {
	if v := x.queries.get(text); v != nil {
		return v, nil
	}
	var vecs [][]float32
	var err error
	if qe, ok := x.emb.(QueryEmbedder); ok {
		var v []float32
		if v, err = qe.EmbedQuery(ctx, text); err == nil {
			vecs = [][]float32{v}
		}
	} else {
		vecs, err = x.emb.Embed(ctx, []string{text})
	}
	if ctx.Err() == nil {
		x.mu.Lock()
		x.lastErr = ""
		if err != nil {
			x.lastErr = err.Error()
		}
		x.mu.Unlock()
	}
	if err != nil {
		return nil, err
	}
	v := vecs[0]
	normalize(v)
	x.queries.put(text, v)
	return v, nil
}

// queryCache holds the vectors of recent queries.
type queryCache struct {
	mu sync.Mutex
	m  map[string][]float32
}

const maxQueries = 256

func (c *queryCache) get(text string) []float32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[text]
}

func (c *queryCache) put(text string, v []float32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxQueries {
		c.m = map[string][]float32{}
	}
	c.m[text] = v
}
