package staticembed

import (
	"bytes"
	"context"
	"testing"
)

func TestWriteLoad(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, []string{"the", "cat", "dog"}, [][]float32{{0.1, 0.1}, {1, 0}, {0.9, 0.2}}); err != nil {
		t.Fatal(err)
	}
	m, err := Load(bytes.NewReader(b.Bytes()), "tiny")
	if err != nil {
		t.Fatal(err)
	}
	vecs, _ := m.Embed(context.Background(), []string{"The cat!", "a dog", "nothing known"})
	if vecs[0][0] == 0 || vecs[2][0] != 0 || vecs[2][1] != 0 {
		t.Errorf("%v", vecs)
	}
	for cut := range b.Len() {
		if _, err := Load(bytes.NewReader(b.Bytes()[:cut]), "tiny"); err == nil {
			t.Fatalf("a file cut at %d of %d bytes loaded", cut, b.Len())
		}
	}
}

// FuzzLoad holds the reading of a model file to a model or an error,
// never a panic or an allocation the file's size does not justify.
func FuzzLoad(f *testing.F) {
	var b bytes.Buffer
	Write(&b, []string{"a", "b"}, [][]float32{{1, 2, 3}, {4, 5, 6}})
	f.Add(b.Bytes())
	f.Add([]byte(magic + "\xff\xff\xff\x7f\xff\xff\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Load(bytes.NewReader(data), "f")
		if err != nil {
			return
		}
		vecs, err := m.Embed(context.Background(), []string{"a b c", string(data)})
		if err != nil || len(vecs[0]) != m.Dimensions() {
			t.Fatalf("%v, %d", err, len(vecs[0]))
		}
	})
}
