package staticembed

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"unicode"
)

// The model file, little-endian: the magic, the number of words, of
// dimensions and of bits a number (4 or 8; uint32 each), each word
// (uint16 length, bytes) in order of frequency, then each word's vector:
// a float32 scale and one signed number per dimension (the vector is
// scale times them), in a byte each or, at 4 bits, two to a byte, the
// first in the low half.
const magic = "SEMB2\n"

// Bounds on a model file, checked before anything is allocated.
const (
	maxWords   = 2_000_000
	maxDims    = 4096
	maxNumbers = 1 << 28 // words × dimensions: at most 256 MiB of vectors
)

// Model is a static embedding model. It is safe for concurrent use.
type Model struct {
	name  string
	dims  int
	bits  int
	index map[string]int32
	// q holds the vectors' numbers as the file has them, row bytes a word.
	q     []byte
	row   int
	scale []float32
	// weight is each word's weight: a/(a+p), p its frequency by Zipf's
	// law on its rank.
	weight []float32
	// common is the vector of text in general: the frequency-weighted
	// mean of the weighted word vectors, removed from every embedding.
	common []float32
}

// rowBytes is how many bytes a vector of dims numbers of bits each takes.
func rowBytes(dims, bits int) int { return (dims*bits + 7) / 8 }

// Write writes a model file of words, most frequent first, and their
// vectors, with bits (4 or 8) a number. It returns an error for no words,
// not one vector a word, vectors of different lengths or other bits.
func Write(w io.Writer, words []string, vecs [][]float32, bits int) error {
	if len(words) == 0 || len(words) != len(vecs) {
		return errors.New("staticembed: no words, or not one vector per word")
	}
	if bits != 4 && bits != 8 {
		return fmt.Errorf("staticembed: %d bits a number, not 4 or 8", bits)
	}
	bw := bufio.NewWriter(w)
	dims := len(vecs[0])
	bw.WriteString(magic)
	for _, x := range []int{len(words), dims, bits} {
		binary.Write(bw, binary.LittleEndian, uint32(x))
	}
	for _, s := range words {
		binary.Write(bw, binary.LittleEndian, uint16(len(s)))
		bw.WriteString(s)
	}
	top := float32(int(1)<<(bits-1) - 1) // 127 or 7
	row := make([]byte, rowBytes(dims, bits))
	for _, v := range vecs {
		if len(v) != dims {
			return errors.New("staticembed: vectors of different lengths")
		}
		var m float32
		for _, x := range v {
			m = max(m, float32(math.Abs(float64(x))))
		}
		sc := m / top
		if sc == 0 {
			sc = 1
		}
		clear(row)
		for j, x := range v {
			n := int8(math.Round(float64(x / sc)))
			if bits == 8 {
				row[j] = byte(n)
			} else {
				row[j/2] |= (byte(n) & 0xf) << (4 * (j % 2))
			}
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
	head := make([]byte, len(magic)+12)
	if _, err := io.ReadFull(br, head); err != nil || string(head[:len(magic)]) != magic {
		return nil, errors.New("staticembed: not a model file")
	}
	n := binary.LittleEndian.Uint32(head[len(magic):])
	d := binary.LittleEndian.Uint32(head[len(magic)+4:])
	bits := binary.LittleEndian.Uint32(head[len(magic)+8:])
	if n == 0 || n > maxWords || d == 0 || d > maxDims || uint64(n)*uint64(d) > maxNumbers {
		return nil, fmt.Errorf("staticembed: a model of %d words of %d dimensions", n, d)
	}
	if bits != 4 && bits != 8 {
		return nil, fmt.Errorf("staticembed: %d bits a number", bits)
	}
	m := &Model{name: name, dims: int(d), bits: int(bits), row: rowBytes(int(d), int(bits)),
		index: make(map[string]int32, n), scale: make([]float32, n), weight: make([]float32, n)}
	// The words, one after another in one string that the index's keys
	// share.
	var lb [2]byte
	var text []byte
	ends := make([]int, n)
	for i := range int(n) {
		if _, err := io.ReadFull(br, lb[:]); err != nil {
			return nil, fmt.Errorf("staticembed: word %d: %w", i, err)
		}
		l := int(binary.LittleEndian.Uint16(lb[:]))
		text = slices.Grow(text, l)
		if _, err := io.ReadFull(br, text[len(text):len(text)+l]); err != nil {
			return nil, fmt.Errorf("staticembed: word %d: %w", i, err)
		}
		text = text[:len(text)+l]
		ends[i] = len(text)
	}
	words := string(text)
	for i, end := range ends {
		start := 0
		if i > 0 {
			start = ends[i-1]
		}
		if _, dup := m.index[words[start:end]]; !dup {
			m.index[words[start:end]] = int32(i)
		}
	}
	m.q = make([]byte, int(n)*m.row)
	var sb [4]byte
	for i := range int(n) {
		if _, err := io.ReadFull(br, sb[:]); err != nil {
			return nil, fmt.Errorf("staticembed: vector %d: %w", i, err)
		}
		m.scale[i] = math.Float32frombits(binary.LittleEndian.Uint32(sb[:]))
		if math.IsNaN(float64(m.scale[i])) || math.IsInf(float64(m.scale[i]), 0) {
			return nil, fmt.Errorf("staticembed: vector %d: scale is not a number", i)
		}
		if _, err := io.ReadFull(br, m.q[i*m.row:(i+1)*m.row]); err != nil {
			return nil, fmt.Errorf("staticembed: vector %d: %w", i, err)
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
		m.add(m.common, int32(i), float32(p)*m.weight[i])
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
		if i, ok := m.index[w]; ok {
			m.add(v, i, m.weight[i])
			sum += m.weight[i]
			continue
		}
		// A word the model lacks: its parts, which count as one word.
		if i, j, ok := m.parts(w); ok {
			m.add(v, i, m.weight[i]/2)
			m.add(v, j, m.weight[j]/2)
			sum += (m.weight[i] + m.weight[j]) / 2
		}
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

// add adds f times word i's vector to v.
func (m *Model) add(v []float32, i int32, f float32) {
	f *= m.scale[i]
	row := m.q[int(i)*m.row : int(i+1)*m.row]
	if m.bits == 8 {
		for j, x := range row[:len(v)] {
			v[j] += f * float32(int8(x))
		}
		return
	}
	for j, x := range row[:len(v)/2] {
		p := &nibbles[x]
		v[2*j] += f * p[0]
		v[2*j+1] += f * p[1]
	}
	if len(v)%2 == 1 {
		v[len(v)-1] += f * float32(int8(row[len(row)-1]<<4)>>4)
	}
}

// nibbles holds the two numbers of each byte of a 4-bit vector.
var nibbles = func() (t [256][2]float32) {
	for x := range t {
		t[x] = [2]float32{float32(int8(x<<4) >> 4), float32(int8(x) >> 4)}
	}
	return t
}()

// Parts of a word the model lacks, tried in turn: the word less a plural
// ending ("hotkeys", "hotkey"), then two words it is made of, at least
// minPart letters each and among the partWords most frequent
// ("backlinks", "back" and "links"; "frontmatter", "front" and
// "matter"), the longer the shorter one, the better.
const (
	minPart   = 3
	partWords = 100_000
)

// parts returns what stands for a word the model lacks: one word twice,
// two words, or ok false.
func (m *Model) parts(w string) (i, j int32, ok bool) {
	for _, end := range [...]struct{ cut, add string }{{"ies", "y"}, {"es", ""}, {"s", ""}} {
		if stem, cut := strings.CutSuffix(w, end.cut); cut && len(stem) >= minPart {
			if i, ok := m.index[stem+end.add]; ok {
				return i, i, true
			}
		}
	}
	if len(w) < 2*minPart || !onlyLetters(w) {
		return 0, 0, false
	}
	best := 0
	for k := minPart; k <= len(w)-minPart; k++ {
		short := min(k, len(w)-k)
		if short <= best {
			continue
		}
		a, okA := m.index[w[:k]]
		b, okB := m.index[w[k:]]
		if okA && okB && a < partWords && b < partWords {
			i, j, best = a, b, short
		}
	}
	return i, j, best > 0
}

func onlyLetters(w string) bool {
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

func notWord(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }
