package staticembed

import (
	"bytes"
	"context"
	"math"
	"testing"
)

func TestWriteLoad(t *testing.T) {
	words := []string{"the", "cat", "dog"}
	vecs := [][]float32{{0.1, 0.1, -0.05}, {1, 0, -0.5}, {0.9, 0.2, 0.3}}
	for _, bits := range []int{4, 8} {
		t.Run(map[int]string{4: "4 bits", 8: "8 bits"}[bits], func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, words, vecs, bits); err != nil {
				t.Fatal(err)
			}
			m, err := Load(bytes.NewReader(b.Bytes()), "tiny")
			if err != nil {
				t.Fatal(err)
			}
			// Each number comes back within half a step of the scale.
			step := 1 / float64(int(1)<<(bits-1)-1)
			for i, v := range vecs {
				got := make([]float32, len(v))
				m.add(got, int32(i), 1)
				var top float64
				for _, x := range v {
					top = max(top, math.Abs(float64(x)))
				}
				for j := range v {
					if d := math.Abs(float64(got[j] - v[j])); d > top*step/2+1e-6 {
						t.Errorf("%s[%d] = %v, want %v", words[i], j, got[j], v[j])
					}
				}
			}
			vs, _ := m.Embed(context.Background(), []string{"The cat!", "a dog", "nothing known"})
			if vs[0][0] == 0 || vs[2][0] != 0 || vs[2][1] != 0 {
				t.Errorf("%v", vs)
			}
			for cut := range b.Len() {
				if _, err := Load(bytes.NewReader(b.Bytes()[:cut]), "tiny"); err == nil {
					t.Fatalf("a file cut at %d of %d bytes loaded", cut, b.Len())
				}
			}
		})
	}
	if err := Write(&bytes.Buffer{}, words, vecs, 6); err == nil {
		t.Error("6 bits a number written")
	}
}

func TestModel_parts(t *testing.T) {
	words := []string{"the", "back", "links", "hotkey", "key", "bindings", "library", "re", "gex", "matter", "front", "in"}
	vecs := make([][]float32, len(words))
	for i := range vecs {
		vecs[i] = []float32{float32(i + 1), 1}
	}
	var b bytes.Buffer
	if err := Write(&b, words, vecs, 8); err != nil {
		t.Fatal(err)
	}
	m, err := Load(bytes.NewReader(b.Bytes()), "tiny")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		word string
		want []string // nil: none
	}{
		{"hotkeys", []string{"hotkey", "hotkey"}},
		{"libraries", []string{"library", "library"}},
		{"backlinks", []string{"back", "links"}},
		{"frontmatter", []string{"front", "matter"}},
		{"keybindings", []string{"key", "bindings"}},
		{"regex", nil},      // a part of two letters
		{"thein", nil},      // too short to be two words
		{"back2links", nil}, // not letters only
		{"zzzzzz", nil},
	} {
		t.Run(tt.word, func(t *testing.T) {
			i, j, ok := m.parts(tt.word)
			switch {
			case tt.want == nil && ok:
				t.Errorf("parts %q, %q", words[i], words[j])
			case tt.want != nil && !ok:
				t.Error("no parts")
			case tt.want != nil && (words[i] != tt.want[0] || words[j] != tt.want[1]):
				t.Errorf("parts %q, %q, want %q", words[i], words[j], tt.want)
			}
		})
	}
	// A word made of two counts as one: the same vector as its parts'.
	got, _ := m.Embed(context.Background(), []string{"backlinks", "back links"})
	for j := range got[0] {
		if math.Abs(float64(got[0][j]-got[1][j])) > 1e-6 {
			t.Fatalf("backlinks %v, back links %v", got[0], got[1])
		}
	}
}

// FuzzLoad holds the reading of a model file to a model or an error,
// never a panic or an allocation the file's size does not justify.
func FuzzLoad(f *testing.F) {
	for _, bits := range []int{4, 8} {
		var b bytes.Buffer
		Write(&b, []string{"a", "b"}, [][]float32{{1, 2, 3}, {4, 5, 6}}, bits)
		f.Add(b.Bytes())
	}
	f.Add([]byte(magic + "\xff\xff\xff\x7f\xff\xff\x00\x00\x04\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Load(bytes.NewReader(data), "f")
		if err != nil {
			return
		}
		vecs, err := m.Embed(context.Background(), []string{"a b c", "aaabbb bs", string(data)})
		if err != nil || len(vecs[0]) != m.Dimensions() {
			t.Fatalf("%v, %d", err, len(vecs[0]))
		}
	})
}
