package encoder

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// reference is a fixture made by testdata/reference.py: sentences with the
// token ids and the vectors the model's authors' runtime gives them.
type reference struct {
	Model     string `json:"model"`
	Sentences []struct {
		Text   string  `json:"text"`
		Kind   string  `json:"kind"`
		IDs    []int32 `json:"ids"`
		Vector string  `json:"vector"`
	} `json:"sentences"`
}

// models are the model files the tests run, with their fixtures.
var models = []struct{ file, fixture string }{
	{"builtin/model/bge-small-en-v1.5.wenc", "testdata/bge-small-en-v1.5.json"},
	{"builtin/model/all-minilm-l6-v2.wenc", "testdata/all-minilm-l6-v2.json"},
}

// shortTokens is the longest sentence TestModel_Embed embeds with -short:
// the few long ones cost most of its time.
const shortTokens = 128

var loaded sync.Map // file → *Model

// loadModel loads a committed model file once per test binary; it skips
// the test when the file is not in the tree.
func loadModel(tb testing.TB, file string) *Model {
	tb.Helper()
	m := loadModelOrNil(tb, file)
	if m == nil {
		tb.Skipf("no model file %s", file)
	}
	return m
}

// loadModelOrNil is loadModel, but returns nil when the file is not in
// the tree.
func loadModelOrNil(tb testing.TB, file string) *Model {
	tb.Helper()
	if m, ok := loaded.Load(file); ok {
		return m.(*Model)
	}
	data, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		tb.Fatal(err)
	}
	m, err := Load(data)
	if err != nil {
		tb.Fatalf("Load(%s): %v", file, err)
	}
	loaded.Store(file, m)
	return m
}

func readReference(tb testing.TB, file string) reference {
	tb.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	var ref reference
	if err := json.Unmarshal(data, &ref); err != nil {
		tb.Fatal(err)
	}
	if len(ref.Sentences) < 100 {
		tb.Fatalf("%s: %d sentences, want at least 100", file, len(ref.Sentences))
	}
	return ref
}

func kindOf(tb testing.TB, s string) Kind {
	switch s {
	case "passage":
		return Passage
	case "query":
		return Query
	}
	tb.Fatalf("kind %q", s)
	return 0
}

func TestModel_Tokenize(t *testing.T) {
	for _, mf := range models {
		t.Run(filepath.Base(mf.fixture), func(t *testing.T) {
			m := loadModel(t, mf.file)
			ref := readReference(t, mf.fixture)
			for i, s := range ref.Sentences {
				got, err := m.Tokenize(s.Text, kindOf(t, s.Kind))
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, s.IDs) {
					t.Errorf("sentence %d %.60q:\n got  %v\n want %v", i, s.Text, got, s.IDs)
				}
			}
		})
	}
}

func TestModel_Embed(t *testing.T) {
	for _, mf := range models {
		t.Run(filepath.Base(mf.fixture), func(t *testing.T) {
			m := loadModel(t, mf.file)
			ref := readReference(t, mf.fixture)
			byKind := map[string][]int{}
			skipped := 0
			for i, s := range ref.Sentences {
				if testing.Short() && len(s.IDs) > shortTokens {
					skipped++
					continue
				}
				byKind[s.Kind] = append(byKind[s.Kind], i)
			}
			low, sum, n := 2.0, 0.0, 0
			for kind, idx := range byKind {
				texts := make([]string, len(idx))
				for j, i := range idx {
					texts[j] = ref.Sentences[i].Text
				}
				vecs, err := m.Embed(context.Background(), texts, kindOf(t, kind))
				if err != nil {
					t.Fatal(err)
				}
				for j, i := range idx {
					want := decodeVector(t, ref.Sentences[i].Vector)
					c := cosine(vecs[j], want)
					if c < 0.99 {
						t.Errorf("sentence %d %.60q: cosine %.4f with the reference, want ≥ 0.99", i, texts[j], c)
					}
					low, sum, n = min(low, c), sum+c, n+1
				}
			}
			if n < 100 {
				t.Errorf("%d sentences compared, want at least 100", n)
			}
			if skipped > 0 {
				t.Logf("-short: %d sentences of more than %d tokens left out", skipped, shortTokens)
			}
			t.Logf("%s: %d sentences, cosine with the reference min %.5f mean %.5f", ref.Model, n, low, sum/float64(n))
		})
	}
}

func decodeVector(tb testing.TB, s string) []float32 {
	tb.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		tb.Fatal(err)
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

func cosine(a, b []float32) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	return ab / math.Sqrt(aa*bb)
}
