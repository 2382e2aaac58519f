package encoder

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/wikid/wikid/internal/gemm"
)

// Kind says what a text is, for the model's prefixes.
type Kind int

const (
	// Passage is a text to be found: a note's chunk.
	Passage Kind = iota
	// Query is a text to find passages with.
	Query
)

// batchTokens is how many tokens Embed runs through the encoder at once,
// the texts of a batch packed one after another without padding.
const batchTokens = 2048

// Model is a loaded encoder. It is safe for concurrent use.
type Model struct {
	cfg    Config
	tok    *tokenizer
	word   Tensor // vocab×hidden, int8
	pos    Tensor // positions×hidden, int8
	typ    Tensor // types×hidden
	lnG    []float32
	lnB    []float32
	layers []layer
	// pack packs every layer's weights for the kernel on the first
	// forward pass (see packWeights).
	pack sync.Once
}

// layer holds the weights of one encoder layer.
type layer struct {
	q, k, v, o, in, out linear
	ln1G, ln1B          []float32
	ln2G, ln2B          []float32
}

// linear is a dense layer: an int8 n×k matrix, its scales and its bias,
// and the matrix packed for the kernel once the model first embeds.
type linear struct {
	w     []int8
	scale []float32
	bias  []float32
	n, k  int
	mat   *gemm.Int8
}

// Load reads a model file from data, which it keeps and shares: data must
// not change while the model is used. It returns an error wrapping
// ErrFormat when data is not a model file or lacks a tensor of its model.
func Load(data []byte) (*Model, error) {
	cfg, ts, err := decode(data)
	if err != nil {
		return nil, err
	}
	m := &Model{cfg: cfg}
	if m.tok, err = newTokenizer(cfg.Tokenizer); err != nil {
		return nil, err
	}
	h, vocab := cfg.Hidden, len(cfg.Tokenizer.Vocab)
	get := func(name string, rows, cols int, q8 bool) (Tensor, error) {
		t, ok := ts[name]
		switch {
		case !ok:
			return t, errFormatf("no tensor %s", name)
		case t.Rows != rows || t.Cols != cols:
			return t, errFormatf("tensor %s is %d×%d, not %d×%d", name, t.Rows, t.Cols, rows, cols)
		case q8 && t.Q8 == nil:
			return t, errFormatf("tensor %s is not int8", name)
		case !q8 && t.F32 == nil:
			return t, errFormatf("tensor %s is not float32", name)
		}
		return t, nil
	}
	vec := func(name string, n int) ([]float32, error) {
		t, err := get(name, 1, n, false)
		return t.F32, err
	}
	lin := func(prefix string, n, k int) (linear, error) {
		w, err := get(prefix+".weight", n, k, true)
		if err != nil {
			return linear{}, err
		}
		b, err := vec(prefix+".bias", n)
		return linear{w: w.Q8, scale: w.Scale, bias: b, n: n, k: k}, err
	}
	var errs [5]error
	m.word, errs[0] = get("embeddings.word_embeddings.weight", vocab, h, true)
	m.pos, errs[1] = get("embeddings.position_embeddings.weight", cfg.MaxPositions, h, true)
	m.typ, errs[2] = get("embeddings.token_type_embeddings.weight", cfg.TypeVocab, h, false)
	m.lnG, errs[3] = vec("embeddings.LayerNorm.weight", h)
	m.lnB, errs[4] = vec("embeddings.LayerNorm.bias", h)
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	m.layers = make([]layer, cfg.Layers)
	for i := range m.layers {
		l := &m.layers[i]
		p := fmt.Sprintf("encoder.layer.%d.", i)
		var errs [10]error
		l.q, errs[0] = lin(p+"attention.self.query", h, h)
		l.k, errs[1] = lin(p+"attention.self.key", h, h)
		l.v, errs[2] = lin(p+"attention.self.value", h, h)
		l.o, errs[3] = lin(p+"attention.output.dense", h, h)
		l.in, errs[4] = lin(p+"intermediate.dense", cfg.Intermediate, h)
		l.out, errs[5] = lin(p+"output.dense", h, cfg.Intermediate)
		l.ln1G, errs[6] = vec(p+"attention.output.LayerNorm.weight", h)
		l.ln1B, errs[7] = vec(p+"attention.output.LayerNorm.bias", h)
		l.ln2G, errs[8] = vec(p+"output.LayerNorm.weight", h)
		l.ln2B, errs[9] = vec(p+"output.LayerNorm.bias", h)
		for _, err := range errs {
			if err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

// Name names the model's vectors.
func (m *Model) Name() string { return m.cfg.Name }

// Dim is the length of the model's vectors.
func (m *Model) Dim() int { return m.cfg.Hidden }

// MaxTokens is the longest input the model reads, in tokens, [CLS] and
// [SEP] included; Embed truncates longer texts.
func (m *Model) MaxTokens() int { return m.cfg.MaxTokens }

// Config returns the model's configuration.
func (m *Model) Config() Config { return m.cfg }

// Tokenize returns the token ids the model reads for text, prefix
// included, [CLS] and [SEP] included, truncated to MaxTokens. Its length
// is what the text costs. It returns ErrKind for an unknown kind.
func (m *Model) Tokenize(text string, kind Kind) ([]int32, error) {
	prefix, err := m.prefix(kind)
	if err != nil {
		return nil, err
	}
	return m.tok.Encode(prefix+text, m.cfg.MaxTokens), nil
}

func (m *Model) prefix(kind Kind) (string, error) {
	switch kind {
	case Passage:
		return m.cfg.PassagePrefix, nil
	case Query:
		return m.cfg.QueryPrefix, nil
	}
	return "", fmt.Errorf("%w: %d", ErrKind, kind)
}

// Embed returns the vectors of texts, each of length Dim and of norm 1,
// in order; a text longer than MaxTokens is embedded from its first
// tokens. It returns ErrKind for an unknown kind and ctx's error when ctx
// ends between batches.
func (m *Model) Embed(ctx context.Context, texts []string, kind Kind) ([][]float32, error) {
	prefix, err := m.prefix(kind)
	if err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	var seqs [][]int32
	first, tokens := 0, 0
	run := func(end int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		m.forward(seqs, out[first:end])
		seqs, first, tokens = seqs[:0], end, 0
		return nil
	}
	for i, text := range texts {
		ids := m.tok.Encode(prefix+text, m.cfg.MaxTokens)
		if tokens > 0 && tokens+len(ids) > batchTokens {
			if err := run(i); err != nil {
				return nil, err
			}
		}
		seqs = append(seqs, ids)
		tokens += len(ids)
	}
	if len(seqs) > 0 {
		if err := run(len(texts)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// EmbedIDs returns the vector of one sequence of token ids, [CLS] and
// [SEP] included, as Tokenize gives them. It panics when an id is outside
// the vocabulary or the sequence is longer than MaxTokens.
func (m *Model) EmbedIDs(ids []int32) []float32 {
	out := make([][]float32, 1)
	m.forward([][]int32{ids}, out)
	return out[0]
}

// forward runs the encoder over seqs, packed one after another, and sets
// out[s] to the pooled, normalised vector of seqs[s].
func (m *Model) forward(seqs [][]int32, out [][]float32) {
	m.packWeights()
	h, inter := m.cfg.Hidden, m.cfg.Intermediate
	total, longest := 0, 0
	for _, s := range seqs {
		total += len(s)
		longest = max(longest, len(s))
	}
	x := make([]float32, total*h)
	q := make([]float32, total*h)
	k := make([]float32, total*h)
	v := make([]float32, total*h)
	ctxv := make([]float32, total*h)
	wide := make([]float32, total*inter)
	ab := newAttnBuf(longest, h/m.cfg.Heads)

	// Embeddings: word + position + token type 0, then the layer norm.
	t := 0
	for _, s := range seqs {
		for p, id := range s {
			row := x[t*h : (t+1)*h]
			ws, ps := m.word.Scale[id], m.pos.Scale[p]
			wr, pr := m.word.Q8[int(id)*h:int(id+1)*h], m.pos.Q8[p*h:(p+1)*h]
			tr := m.typ.F32[:h]
			for d := range row {
				row[d] = float32(wr[d])*ws + float32(pr[d])*ps + tr[d]
			}
			t++
		}
	}
	addLayerNorm(x, nil, total, h, m.lnG, m.lnB, m.cfg.LayerNormEps)

	heads := m.cfg.Heads
	for li := range m.layers {
		l := &m.layers[li]
		l.q.apply(q, x, total)
		l.k.apply(k, x, total)
		l.v.apply(v, x, total)
		off := 0
		for _, s := range seqs {
			attend(ctxv[off*h:], q[off*h:], k[off*h:], v[off*h:], ab, len(s), h, heads)
			off += len(s)
		}
		l.o.apply(q, ctxv, total)
		addLayerNorm(x, q, total, h, l.ln1G, l.ln1B, m.cfg.LayerNormEps)
		l.in.apply(wide, x, total)
		gelu(wide)
		l.out.apply(q, wide, total)
		addLayerNorm(x, q, total, h, l.ln2G, l.ln2B, m.cfg.LayerNormEps)
	}

	off := 0
	for si, s := range seqs {
		vec := make([]float32, h)
		if m.cfg.Pooling == PoolCLS {
			copy(vec, x[off*h:(off+1)*h])
		} else {
			for i := range len(s) {
				row := x[(off+i)*h : (off+i+1)*h]
				for d, v := range row {
					vec[d] += v
				}
			}
		}
		normalize(vec)
		out[si] = vec
		off += len(s)
	}
}

// normalize scales v to norm 1 (a zero vector stays zero).
func normalize(v []float32) {
	var sq float64
	for _, x := range v {
		sq += float64(x) * float64(x)
	}
	if sq == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(sq))
	for i := range v {
		v[i] *= inv
	}
}
