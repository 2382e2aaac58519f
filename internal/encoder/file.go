package encoder

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"unsafe"
)

// magic opens every model file; version is the layout this package writes.
const (
	magic   = "wikidenc"
	version = 1
)

// Tensor kinds in a model file.
const (
	kindF32 = 1 // float32, rows×cols
	kindQ8  = 2 // a float32 scale per row, then int8, rows×cols
)

// Tensor is one named tensor of a model file: a float32 matrix or vector
// (F32), or an int8 matrix with a float32 scale per row (Q8 and Scale),
// whose element (i, j) stands for Q8[i*Cols+j]·Scale[i].
type Tensor struct {
	Name       string
	Rows, Cols int
	F32        []float32
	Q8         []int8
	Scale      []float32
}

// Quantize returns the rows×cols matrix data as int8 with one scale per
// row: each row is scaled so that its largest magnitude is 127, and
// rounded to the nearest.
func Quantize(name string, rows, cols int, data []float32) Tensor {
	t := Tensor{Name: name, Rows: rows, Cols: cols, Q8: make([]int8, rows*cols), Scale: make([]float32, rows)}
	for i := range rows {
		row := data[i*cols : (i+1)*cols]
		var big float32
		for _, v := range row {
			big = max(big, float32(math.Abs(float64(v))))
		}
		if big == 0 {
			continue
		}
		scale := big / 127
		t.Scale[i] = scale
		q := t.Q8[i*cols : (i+1)*cols]
		for j, v := range row {
			q[j] = int8(max(-127, min(127, math.Round(float64(v/scale)))))
		}
	}
	return t
}

// Write writes a model file: the configuration, then the tensors in order.
// It returns an error when the configuration does not describe a model,
// a tensor's data does not match its size, or w fails.
func Write(w io.Writer, cfg Config, tensors []Tensor) error {
	if err := cfg.validate(); err != nil {
		return err
	}
	header, err := json.Marshal(cfg)
	if err != nil {
		return fmt.Errorf("encode the configuration: %w", err)
	}
	var b bytes.Buffer
	b.WriteString(magic)
	b.Write(binary.LittleEndian.AppendUint32(nil, version))
	b.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(header))))
	b.Write(header)
	b.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(tensors))))
	for _, t := range tensors {
		if len(t.Name) == 0 || len(t.Name) > 255 || t.Rows <= 0 || t.Cols <= 0 {
			return fmt.Errorf("tensor %q of %d×%d: bad name or size", t.Name, t.Rows, t.Cols)
		}
		n := t.Rows * t.Cols
		b.WriteByte(byte(len(t.Name)))
		b.WriteString(t.Name)
		switch {
		case t.Q8 != nil:
			if len(t.Q8) != n || len(t.Scale) != t.Rows {
				return fmt.Errorf("tensor %q: %d values and %d scales for %d×%d", t.Name, len(t.Q8), len(t.Scale), t.Rows, t.Cols)
			}
			b.WriteByte(kindQ8)
			b.Write(binary.LittleEndian.AppendUint32(nil, uint32(t.Rows)))
			b.Write(binary.LittleEndian.AppendUint32(nil, uint32(t.Cols)))
			writeFloats(&b, t.Scale)
			b.Write(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(t.Q8))), n))
		default:
			if len(t.F32) != n {
				return fmt.Errorf("tensor %q: %d values for %d×%d", t.Name, len(t.F32), t.Rows, t.Cols)
			}
			b.WriteByte(kindF32)
			b.Write(binary.LittleEndian.AppendUint32(nil, uint32(t.Rows)))
			b.Write(binary.LittleEndian.AppendUint32(nil, uint32(t.Cols)))
			writeFloats(&b, t.F32)
		}
	}
	_, err = w.Write(b.Bytes())
	return err
}

func writeFloats(b *bytes.Buffer, fs []float32) {
	var tmp [4]byte
	for _, f := range fs {
		binary.LittleEndian.PutUint32(tmp[:], math.Float32bits(f))
		b.Write(tmp[:])
	}
}

// decoder reads a model file held in memory. Its int8 tensors share the
// memory of the data they were read from.
type decoder struct {
	data []byte
	off  int
	err  error
}

func (d *decoder) take(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > len(d.data)-d.off {
		d.err = fmt.Errorf("%w: truncated at byte %d (%d more wanted)", ErrFormat, d.off, n)
		return nil
	}
	p := d.data[d.off : d.off+n]
	d.off += n
	return p
}

func (d *decoder) u32() int {
	p := d.take(4)
	if p == nil {
		return 0
	}
	return int(binary.LittleEndian.Uint32(p))
}

func (d *decoder) floats(n int) []float32 {
	if n < 0 || n > (len(d.data)-d.off)/4 {
		d.take(len(d.data) + 1)
		return nil
	}
	p := d.take(4 * n)
	if p == nil {
		return nil
	}
	fs := make([]float32, n)
	for i := range fs {
		f := math.Float32frombits(binary.LittleEndian.Uint32(p[4*i:]))
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			d.err = fmt.Errorf("%w: a number that is not finite at byte %d", ErrFormat, d.off-4*n+4*i)
			return nil
		}
		fs[i] = f
	}
	return fs
}

// decode reads the configuration and the tensors, by name, of a model
// file; it returns an error wrapping ErrFormat when data is not one.
func decode(data []byte) (Config, map[string]Tensor, error) {
	var cfg Config
	d := &decoder{data: data}
	if m := d.take(len(magic)); m == nil || string(m) != magic {
		return cfg, nil, fmt.Errorf("%w: no %q at its start", ErrFormat, magic)
	}
	if v := d.u32(); d.err == nil && v != version {
		return cfg, nil, fmt.Errorf("%w: version %d, this wikid reads version %d", ErrFormat, v, version)
	}
	header := d.take(d.u32())
	if d.err != nil {
		return cfg, nil, d.err
	}
	if err := json.Unmarshal(header, &cfg); err != nil {
		return cfg, nil, fmt.Errorf("%w: its configuration: %w", ErrFormat, err)
	}
	if err := cfg.validate(); err != nil {
		return cfg, nil, err
	}
	count := d.u32()
	tensors := make(map[string]Tensor, min(count, 1024))
	for i := 0; i < count && d.err == nil; i++ {
		var t Tensor
		nameLen := d.take(1)
		if nameLen == nil {
			break
		}
		t.Name = string(d.take(int(nameLen[0])))
		kind := d.take(1)
		t.Rows, t.Cols = d.u32(), d.u32()
		if d.err != nil {
			break
		}
		if t.Rows <= 0 || t.Cols <= 0 || t.Rows > len(data) || t.Cols > len(data) || t.Rows*t.Cols > len(data) {
			return cfg, nil, fmt.Errorf("%w: tensor %q of %d×%d", ErrFormat, t.Name, t.Rows, t.Cols)
		}
		switch kind[0] {
		case kindF32:
			t.F32 = d.floats(t.Rows * t.Cols)
		case kindQ8:
			t.Scale = d.floats(t.Rows)
			if p := d.take(t.Rows * t.Cols); p != nil {
				t.Q8 = unsafe.Slice((*int8)(unsafe.Pointer(unsafe.SliceData(p))), len(p))
			}
		default:
			return cfg, nil, fmt.Errorf("%w: tensor %q of kind %d", ErrFormat, t.Name, kind[0])
		}
		if _, dup := tensors[t.Name]; dup {
			return cfg, nil, fmt.Errorf("%w: tensor %q twice", ErrFormat, t.Name)
		}
		tensors[t.Name] = t
	}
	if d.err != nil {
		return cfg, nil, d.err
	}
	if d.off != len(data) {
		return cfg, nil, fmt.Errorf("%w: %d bytes after its last tensor", ErrFormat, len(data)-d.off)
	}
	return cfg, tensors, nil
}
