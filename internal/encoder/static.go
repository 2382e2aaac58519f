package encoder

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// A static file holds a vector for each token of a model's vocabulary,
// distilled from the model (see Distil): the magic, then the version, the
// vocabulary's size, the vectors' length and the bits a number (4 or 8;
// uint32 each), a float32 scale per token, then the vectors, one row per
// token, each number a signed integer times its row's scale, in a byte
// or, at 4 bits, two to a byte, the first in the low half. The scale
// carries the token's weight.
const (
	staticMagic   = "wikidsta"
	staticVersion = 1
	maxStaticDims = 8192
)

// Static is a static embedding distilled from a Model: a text's vector is
// the sum of its WordPiece tokens' vectors (each already weighted by how
// rare the token is), normalised. It embeds a text in microseconds, with
// no forward pass, and is safe for concurrent use.
type Static struct {
	tok   *tokenizer
	dims  int
	bits  int
	row   int // bytes a row
	q     []byte
	scale []float32
}

// staticRow is how many bytes a row of dims numbers of bits each takes.
func staticRow(dims, bits int) int { return (dims*bits + 7) / 8 }

// WriteStatic writes a static file of t, a float32 matrix with a row per
// token, at bits (4 or 8) a number with a scale per row. It returns an
// error for another matrix or bits, or when w fails.
func WriteStatic(w io.Writer, t Tensor, bits int) error {
	if t.F32 == nil || t.Rows <= 0 || t.Cols <= 0 || t.Cols > maxStaticDims || len(t.F32) != t.Rows*t.Cols {
		return fmt.Errorf("a static file of %d×%d with %d numbers", t.Rows, t.Cols, len(t.F32))
	}
	if bits != 4 && bits != 8 {
		return fmt.Errorf("a static file of %d bits a number, not 4 or 8", bits)
	}
	var b bytes.Buffer
	b.WriteString(staticMagic)
	for _, x := range []int{staticVersion, t.Rows, t.Cols, bits} {
		b.Write(binary.LittleEndian.AppendUint32(nil, uint32(x)))
	}
	top := float64(int(1)<<(bits-1) - 1) // 127 or 7
	scales := make([]float32, t.Rows)
	packed := make([]byte, t.Rows*staticRow(t.Cols, bits))
	for i := range t.Rows {
		v := t.F32[i*t.Cols : (i+1)*t.Cols]
		var big float64
		for _, x := range v {
			big = max(big, math.Abs(float64(x)))
		}
		if big == 0 {
			continue
		}
		scales[i] = float32(big / top)
		row := packed[i*staticRow(t.Cols, bits):]
		for j, x := range v {
			n := int8(max(-top, min(top, math.Round(float64(x)/float64(scales[i])))))
			if bits == 8 {
				row[j] = byte(n)
			} else {
				row[j/2] |= (byte(n) & 0xf) << (4 * (j % 2))
			}
		}
	}
	writeFloats(&b, scales)
	b.Write(packed)
	_, err := w.Write(b.Bytes())
	return err
}

// Static reads a static file distilled from m, which it keeps and shares:
// data must not change while the static embedding is used. It returns an
// error wrapping ErrFormat when data is not a static file or is not one
// of m's vocabulary.
func (m *Model) Static(data []byte) (*Static, error) {
	d := &decoder{data: data}
	if p := d.take(len(staticMagic)); p == nil || string(p) != staticMagic {
		return nil, errFormatf("no %q at the start of the static file", staticMagic)
	}
	v, rows, cols, bits := d.u32(), d.u32(), d.u32(), d.u32()
	switch {
	case d.err != nil:
		return nil, d.err
	case v != staticVersion:
		return nil, errFormatf("static file of version %d, this wikid reads version %d", v, staticVersion)
	case rows != len(m.cfg.Tokenizer.Vocab):
		return nil, errFormatf("static file of %d tokens for a vocabulary of %d", rows, len(m.cfg.Tokenizer.Vocab))
	case cols <= 0 || cols > maxStaticDims:
		return nil, errFormatf("static file of %d dimensions", cols)
	case bits != 4 && bits != 8:
		return nil, errFormatf("static file of %d bits a number", bits)
	}
	s := &Static{tok: m.tok, dims: cols, bits: bits, row: staticRow(cols, bits), scale: d.floats(rows)}
	s.q = d.take(rows * s.row)
	if d.err != nil {
		return nil, d.err
	}
	if d.off != len(data) {
		return nil, errFormatf("%d bytes after the static file's vectors", len(data)-d.off)
	}
	return s, nil
}

// Dim is the length of the vectors.
func (s *Static) Dim() int { return s.dims }

// Embed returns the vector of each text, of norm 1, or zero for a text of
// no token. Texts are read whole, however long; ctx is checked every 64
// texts.
func (s *Static) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, text := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		v := make([]float32, s.dims)
		for _, id := range s.tok.Encode(text, 0) {
			if id != s.tok.cls && id != s.tok.sep && id != s.tok.unk {
				s.add(v, id)
			}
		}
		normalize(v)
		out[i] = v
	}
	return out, nil
}

// add adds token id's vector to v.
func (s *Static) add(v []float32, id int32) {
	f, row := s.scale[id], s.q[int(id)*s.row:int(id+1)*s.row]
	if s.bits == 8 {
		for j, x := range row[:len(v)] {
			v[j] += f * float32(int8(x))
		}
		return
	}
	for j, x := range row[:len(v)/2] {
		v[2*j] += f * float32(int8(x<<4)>>4)
		v[2*j+1] += f * float32(int8(x)>>4)
	}
	if len(v)%2 == 1 {
		v[len(v)-1] += f * float32(int8(row[len(row)-1]<<4)>>4)
	}
}
