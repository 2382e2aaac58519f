package semantic

import (
	"context"
	"crypto/sha256"
	"slices"

	"github.com/wikid/wikid/internal/wiki"
)

// The static layer answers for the chunks the model has not embedded yet.
// A sentence encoder takes minutes to embed a large wiki; a static model
// (word vectors averaged, such as staticembed's) embeds every chunk of it
// in a fraction of a second. Until the model has embedded a chunk, its
// static vector stands in, held in memory only and dropped once the
// model's vector comes. The two models' cosines are not comparable, so a
// search ranks the notes by each model apart and merges the two rankings
// by rank (interleave).

// staticVectors embeds with the static model the texts of chunks that have
// no vector of the model's and no static one yet, and returns their
// vectors by hash. The caller holds no lock: it takes mu to read which
// texts lack one. A failure of the static model leaves those texts
// without, and is logged.
func (x *Index) staticVectors(ctx context.Context, ups []noteUpdate) map[hash][]float32 {
	if x.opts.Static == nil {
		return nil
	}
	var hs []hash
	var texts []string
	seen := map[hash]bool{}
	x.mu.RLock()
	for _, up := range ups {
		for _, c := range up.chunks {
			h := hash(sha256.Sum256([]byte(c.Text)))
			if seen[h] {
				continue
			}
			seen[h] = true
			if _, ok := x.vs.slots[h]; ok {
				continue
			}
			if _, ok := x.static[h]; ok {
				continue
			}
			hs = append(hs, h)
			texts = append(texts, c.Text)
		}
	}
	x.mu.RUnlock()
	if len(texts) == 0 {
		return nil
	}
	out := make(map[hash][]float32, len(texts))
	n := max(1, x.opts.Static.BatchSize())
	for i := 0; i < len(texts); i += n {
		end := min(i+n, len(texts))
		vecs, err := x.opts.Static.Embed(ctx, texts[i:end])
		if err != nil || len(vecs) != end-i {
			x.log.Warn("the static model failed; those notes wait for the model", "err", err)
			return out
		}
		for j, v := range vecs {
			normalize(v)
			out[hs[i+j]] = v
		}
	}
	return out
}

// staticQuery embeds a query with the static model, remembering the last
// ones; nil when it fails.
func (x *Index) staticQuery(ctx context.Context, text string) []float32 {
	if v := x.staticQueries.get(text); v != nil {
		return v
	}
	vecs, err := x.opts.Static.Embed(ctx, []string{text})
	if err != nil || len(vecs) != 1 {
		x.log.Warn("the static model failed on a query", "err", err)
		return nil
	}
	v := vecs[0]
	normalize(v)
	x.staticQueries.put(text, v)
	return v
}

// scanStatic ranks the notes accepted by keep by their best chunk that
// waits for the model and has a static vector, and returns the best limit.
// The caller holds mu.
func (x *Index) scanStatic(q []float32, limit int, keep func(string) bool) []wiki.Neighbour {
	if len(x.static) == 0 || limit <= 0 {
		return nil
	}
	top := make([]wiki.Neighbour, 0, limit+1)
	for _, e := range x.notes {
		if keep != nil && !keep(e.path) {
			continue
		}
		best, bestChunk := float32(-2), (*chunk)(nil)
		for _, c := range e.chunks {
			if c.slot >= 0 {
				continue
			}
			v := x.static[c.hash]
			if len(v) != len(q) {
				continue
			}
			if s := dot(q, v); s > best {
				best, bestChunk = s, c
			}
		}
		if bestChunk == nil {
			continue
		}
		n := wiki.Neighbour{Path: e.path, Score: float64(best), Start: int(bestChunk.start), End: int(bestChunk.end)}
		i, _ := slices.BinarySearchFunc(top, n, byScore)
		if i >= limit {
			continue
		}
		top = slices.Insert(top, i, n)
		if len(top) > limit {
			top = top[:limit]
		}
	}
	return top
}

// interleave merges the model's ranking and the static one by rank: the
// model's first, the static first, the model's second, and so on, a note
// in both taking its better place, at most limit.
func interleave(model, static []wiki.Neighbour, limit int) []wiki.Neighbour {
	if len(static) == 0 {
		return model
	}
	out := make([]wiki.Neighbour, 0, min(limit, len(model)+len(static)))
	seen := make(map[string]bool, cap(out))
	for i := 0; len(out) < limit && (i < len(model) || i < len(static)); i++ {
		for _, list := range [2][]wiki.Neighbour{model, static} {
			if i < len(list) && !seen[list[i].Path] && len(out) < limit {
				seen[list[i].Path] = true
				out = append(out, list[i])
			}
		}
	}
	return out
}
