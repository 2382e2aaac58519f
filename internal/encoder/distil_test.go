package encoder

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// TestModel_Distil distils the tiny model, writes the static file, reads
// it back and embeds with it: the file is the same on one core and on
// several, a text's vector is its tokens' weighted vectors summed and
// normalised, and a file of another vocabulary or cut short is refused.
func TestModel_Distil(t *testing.T) {
	m, err := Load(tinyModel(t))
	if err != nil {
		t.Fatal(err)
	}
	file := func(workers, bits int) []byte {
		t.Helper()
		m.SetMaxWorkers(workers)
		defer m.SetMaxWorkers(0)
		calls := 0
		st, err := m.Distil(context.Background(), 4, func(done, total int) { calls++ })
		if err != nil {
			t.Fatal(err)
		}
		if calls == 0 || st.Rows != len(m.cfg.Tokenizer.Vocab) || st.Cols != 4 {
			t.Fatalf("distilled %d×%d, progress told %d times", st.Rows, st.Cols, calls)
		}
		var b bytes.Buffer
		if err := WriteStatic(&b, st, bits); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	data := file(1, 8)
	if !bytes.Equal(data, file(4, 8)) {
		t.Error("the static file differs on one core and on four")
	}
	s, err := m.Static(data)
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"the wiki", "the wikis", "?", "wiki the"}
	vecs, err := s.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if n := lengthOf(vecs[0]); math.Abs(n-1) > 1e-5 {
		t.Errorf("norm %v", n)
	}
	if n := lengthOf(vecs[2]); n != 0 {
		t.Errorf("a text of no known token has a vector of norm %v", n)
	}
	for j := range vecs[0] {
		if vecs[0][j] != vecs[3][j] {
			t.Fatalf("the order of the tokens changes the vector: %v, %v", vecs[0], vecs[3])
		}
	}
	// At 4 bits a number, the vectors are near those at 8.
	s4, err := m.Static(file(1, 4))
	if err != nil {
		t.Fatal(err)
	}
	vecs4, err := s4.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	var cos float64
	for j := range vecs[0] {
		cos += float64(vecs[0][j]) * float64(vecs4[0][j])
	}
	if cos < 0.9 {
		t.Errorf("cosine of the vectors at 8 and 4 bits %.3f", cos)
	}
	if _, err := m.Distil(context.Background(), 9, nil); err == nil {
		t.Error("distilled to more dimensions than the model has")
	}
	for cut := range len(data) {
		if _, err := m.Static(data[:cut]); !errors.Is(err, ErrFormat) {
			t.Fatalf("a static file cut at %d of %d bytes: %v", cut, len(data), err)
		}
	}
	other := tinyConfig()
	other.Tokenizer.Vocab = append(other.Tokenizer.Vocab, "more")
	var b bytes.Buffer
	if err := Write(&b, other, tinyTensors(other, 1)); err != nil {
		t.Fatal(err)
	}
	o, err := Load(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Static(data); !errors.Is(err, ErrFormat) {
		t.Errorf("a static file of another vocabulary: %v", err)
	}
}

func lengthOf(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

// TestPrincipalAxes checks the axes of points spread along known
// directions: the first axis is the widest spread's, the eigenvectors
// are orthonormal and A·v = λ·v.
func TestPrincipalAxes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var vecs [][]float32
	for range 2000 {
		a, b, c := r.NormFloat64()*5, r.NormFloat64()*2, r.NormFloat64()*0.5
		// Spread 5 along (1,1,0)/√2, 2 along (1,-1,0)/√2, 0.5 along z.
		vecs = append(vecs, []float32{float32((a + b) / math.Sqrt2), float32((a - b) / math.Sqrt2), float32(c + 3)})
	}
	mean, axes := principalAxes(vecs, 2)
	if math.Abs(mean[2]-3) > 0.1 {
		t.Errorf("mean %v", mean)
	}
	want := [][]float64{{1 / math.Sqrt2, 1 / math.Sqrt2, 0}, {1 / math.Sqrt2, -1 / math.Sqrt2, 0}}
	for i, axis := range axes {
		var d float64
		for j := range axis {
			d += axis[j] * want[i][j]
		}
		if math.Abs(math.Abs(d)-1) > 0.01 {
			t.Errorf("axis %d = %v, want ±%v", i, axis, want[i])
		}
	}
	a := [][]float64{{4, 1, 2}, {1, 3, 0}, {2, 0, 5}}
	orig := [][]float64{{4, 1, 2}, {1, 3, 0}, {2, 0, 5}}
	vals, v := jacobiEigen(a)
	for c := range 3 {
		for i := range 3 {
			var av float64
			for j := range 3 {
				av += orig[i][j] * v[j][c]
			}
			if math.Abs(av-vals[c]*v[i][c]) > 1e-9 {
				t.Fatalf("eigenpair %d: A·v %v, λ·v %v", c, av, vals[c]*v[i][c])
			}
		}
	}
}
