package semantic

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
)

// The vectors' file is a header line, "wikid-vectors 1 " and the JSON of
// vectorsHeader, then one record per vector: the text's hash, and the
// vector's numbers as little-endian float32, normalized to length 1. A
// record cut short by a crash is dropped when the file is opened.
const (
	vectorsFile  = "vectors"
	vectorsMagic = "wikid-vectors 1 "
)

type vectorsHeader struct {
	Model string `json:"model"`
	Dims  int    `json:"dims"`
}

// vectors holds every vector in memory, one after the other in data, and
// appends new ones to its file.
type vectors struct {
	path  string
	model string
	dims  int // 0 before the first vector
	data  []float32
	hash  []hash
	slots map[hash]int32
	f     *os.File // nil before the first vector
}

// openVectors reads the vectors' file in dir, dropping it when another
// model made it or it is not one.
func openVectors(dir, model string) (*vectors, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("semantic index: %w", err)
	}
	vs := &vectors{path: filepath.Join(dir, vectorsFile), model: model, slots: map[hash]int32{}}
	f, err := os.OpenFile(vs.path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return vs, nil
	}
	if err != nil {
		return nil, fmt.Errorf("semantic index: %w", err)
	}
	if err := vs.load(f); err != nil {
		f.Close()
		if err := os.Remove(vs.path); err != nil {
			return nil, fmt.Errorf("semantic index: %w", err)
		}
		vs.dims, vs.data, vs.hash, vs.slots = 0, nil, nil, map[hash]int32{}
		return vs, nil
	}
	vs.f = f
	return vs, nil
}

// maxDims bounds the vectors' length: the largest models give 4,096.
const maxDims = 65536

// errOtherModel is returned by load for a file of another model.
var errOtherModel = errors.New("vectors of another model")

func (vs *vectors) load(f *os.File) error {
	r := bufio.NewReaderSize(f, 1<<20)
	line, err := r.ReadBytes('\n')
	if err != nil || !bytes.HasPrefix(line, []byte(vectorsMagic)) {
		return errors.New("not a vectors file")
	}
	var h vectorsHeader
	if err := json.Unmarshal(line[len(vectorsMagic):], &h); err != nil || h.Dims <= 0 || h.Dims > maxDims {
		return errors.New("not a vectors file")
	}
	if h.Model != vs.model {
		return errOtherModel
	}
	vs.dims = h.Dims
	size := len(hash{}) + 4*h.Dims
	rec := make([]byte, size)
	offset := int64(len(line))
	for {
		if _, err := io.ReadFull(r, rec); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				break
			}
			return err
		}
		var hh hash
		copy(hh[:], rec)
		if _, dup := vs.slots[hh]; !dup {
			vs.slots[hh] = int32(len(vs.hash))
			vs.hash = append(vs.hash, hh)
			for i := 0; i < h.Dims; i++ {
				vs.data = append(vs.data, math.Float32frombits(binary.LittleEndian.Uint32(rec[len(hh)+4*i:])))
			}
		}
		offset += int64(size)
	}
	// Drop a record cut short, so that the next one starts in step.
	if err := f.Truncate(offset); err != nil {
		return err
	}
	_, err = f.Seek(offset, io.SeekStart)
	return err
}

func (vs *vectors) len() int { return len(vs.hash) }

// vector returns the vector in slot.
func (vs *vectors) vector(slot int32) []float32 {
	return vs.data[int(slot)*vs.dims : int(slot+1)*vs.dims]
}

// errDims is returned by add for a vector of another length than the
// file's.
var errDims = errors.New("the model's vectors changed length")

// add appends vectors, normalized, under their hashes, and returns their
// slots. The first vector sets the length and starts the file.
func (vs *vectors) add(hs []hash, vecs [][]float32) ([]int32, error) {
	if vs.dims == 0 {
		if len(vecs[0]) > maxDims {
			return nil, fmt.Errorf("vectors of %d numbers: at most %d", len(vecs[0]), maxDims)
		}
		vs.dims = len(vecs[0])
		if err := vs.create(); err != nil {
			vs.dims = 0
			return nil, err
		}
	}
	var buf []byte
	slots := make([]int32, len(hs))
	for _, v := range vecs {
		if len(v) != vs.dims {
			return nil, fmt.Errorf("%w from %d to %d numbers: the index is rebuilt", errDims, vs.dims, len(v))
		}
	}
	for i, v := range vecs {
		if slot, ok := vs.slots[hs[i]]; ok {
			slots[i] = slot
			continue
		}
		normalize(v)
		slot := int32(len(vs.hash))
		vs.slots[hs[i]] = slot
		vs.hash = append(vs.hash, hs[i])
		vs.data = append(vs.data, v...)
		slots[i] = slot
		buf = appendRecord(buf, hs[i], v)
	}
	_, err := vs.f.Write(buf)
	return slots, err
}

// header returns the file's header line.
func (vs *vectors) header() []byte {
	head, _ := json.Marshal(vectorsHeader{Model: vs.model, Dims: vs.dims})
	return append(append([]byte(vectorsMagic), head...), '\n')
}

// appendRecord appends a vector's record to b.
func appendRecord(b []byte, h hash, v []float32) []byte {
	b = append(b, h[:]...)
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

// create starts the file, replacing any.
func (vs *vectors) create() error {
	if vs.f != nil {
		vs.f.Close()
	}
	f, err := os.Create(vs.path)
	if err != nil {
		return err
	}
	if _, err := f.Write(vs.header()); err != nil {
		f.Close()
		return err
	}
	vs.f = f
	return nil
}

// reset drops every vector and the file.
func (vs *vectors) reset() error {
	if vs.f != nil {
		vs.f.Close()
		vs.f = nil
	}
	vs.dims, vs.data, vs.hash, vs.slots = 0, nil, nil, map[hash]int32{}
	if err := os.Remove(vs.path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// keep rewrites the vectors with only the live ones, and returns where
// each old slot that stays went.
func (vs *vectors) keep(live map[hash]bool) (map[int32]int32, error) {
	moved := make(map[int32]int32, len(live))
	var data []float32
	var hs []hash
	slots := make(map[hash]int32, len(live))
	for i, h := range vs.hash {
		if !live[h] {
			continue
		}
		moved[int32(i)] = int32(len(hs))
		slots[h] = int32(len(hs))
		hs = append(hs, h)
		data = append(data, vs.vector(int32(i))...)
	}
	tmp := vs.path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return nil, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.Write(vs.header())
	var rec []byte
	for i, h := range hs {
		rec = appendRecord(rec[:0], h, data[i*vs.dims:(i+1)*vs.dims])
		w.Write(rec)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		os.Remove(tmp)
		return nil, err
	}
	if err := os.Rename(tmp, vs.path); err != nil {
		f.Close()
		os.Remove(tmp)
		return nil, err
	}
	if vs.f != nil {
		vs.f.Close()
	}
	vs.f, vs.data, vs.hash, vs.slots = f, data, hs, slots
	return moved, nil
}

func (vs *vectors) close() error {
	if vs.f == nil {
		return nil
	}
	err := vs.f.Close()
	vs.f = nil
	return err
}

// normalize scales v to length 1 (a zero vector stays).
func normalize(v []float32) {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		return
	}
	s := float32(1 / math.Sqrt(n))
	for i := range v {
		v[i] *= s
	}
}
