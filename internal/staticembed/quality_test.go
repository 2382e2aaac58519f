package staticembed_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gather"
	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/history"
	"github.com/wikid/wikid/internal/index"
	"github.com/wikid/wikid/internal/semantic"
	"github.com/wikid/wikid/internal/staticembed"
	"github.com/wikid/wikid/internal/wiki"
)

// builtin returns the built-in model. Under CI its absence fails: make
// test builds it first.
func builtin(tb testing.TB) *staticembed.Model {
	tb.Helper()
	m, err := staticembed.Builtin()
	if errors.Is(err, staticembed.ErrNotBuilt) && os.Getenv("CI") == "" {
		tb.Skip("the built-in model is not built: run make model")
	}
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// labelled is the labelled set: fixtures/semantic's notes, and questions
// that describe one of them without its words.
type labelled struct {
	Question string `json:"question"`
	Note     string `json:"note"`
}

// TestBuiltin_Quality asks the labelled set's questions of a wiki of its
// 20 notes among 2,000 generated ones, by meaning with the built-in model
// and by words, and counts the questions whose note comes in the top 5.
func TestBuiltin_Quality(t *testing.T) {
	m := builtin(t)
	ctx := context.Background()
	fixtures := filepath.Join("..", "..", "fixtures", "semantic")
	var set []labelled
	data, err := os.ReadFile(filepath.Join(fixtures, "questions.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &set); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gittest.Generate(t, dir, 2000, 50)
	entries, err := os.ReadDir(filepath.Join(fixtures, "notes"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(fixtures, "notes", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files["labelled/"+e.Name()] = string(b)
	}
	gittest.Commit(t, dir, "the labelled notes", files)

	logger := slog.New(slog.DiscardHandler)
	store, err := gitstore.Open(ctx, dir, gitstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	idx, err := index.Open(ctx, filepath.Join(store.Dir(), "index"), index.Options{Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	hist, err := history.Open(ctx, store, history.Options{Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	sem, err := semantic.Open(ctx, filepath.Join(store.Dir(), "semantic"), m, semantic.Options{Logger: logger, Reads: m.Reads})
	if err != nil {
		t.Fatal(err)
	}
	w, err := wiki.Open(ctx, wiki.Deps{Store: store, Index: idx, History: hist, Graph: graph.New(), Semantic: sem}, wiki.Options{Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(ctx)
	if err := w.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	for st, _ := w.SemanticState(); st.Pending > 0; st, _ = w.SemanticState() {
		time.Sleep(10 * time.Millisecond)
	}

	top5 := func(p wiki.SearchParams, want string) bool {
		p.Limit = 5
		res, err := w.Search(ctx, p)
		if err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
		for _, h := range res.Results {
			if h.Path == "labelled/"+want {
				return true
			}
		}
		return false
	}
	var semHits, hybridHits, typedHits, wordHits int
	var missed []string
	for _, q := range set {
		if top5(wiki.SearchParams{Query: q.Question, Mode: wiki.SearchSemantic}, q.Note) {
			semHits++
		} else {
			missed = append(missed, q.Question)
		}
		if top5(wiki.SearchParams{Query: q.Question, Mode: wiki.SearchHybrid}, q.Note) {
			hybridHits++
		}
		if top5(wiki.SearchParams{Query: q.Question}, q.Note) {
			typedHits++
		}
		// Text search at its best for a question: any of its words.
		if any := gather.Query(gather.Terms(q.Question)); any != "" && top5(wiki.SearchParams{Query: any}, q.Note) {
			wordHits++
		}
	}
	n := len(set)
	t.Logf("hit@5 of %d questions among %d notes: semantic %d (%d%%), hybrid %d (%d%%), text as typed %d (%d%%), text by any word %d (%d%%)",
		n, 2000+len(files), semHits, 100*semHits/n, hybridHits, 100*hybridHits/n, typedHits, 100*typedHits/n, wordHits, 100*wordHits/n)
	if len(missed) > 0 {
		t.Logf("semantic missed: %q", missed)
	}
	if semHits*10 < n*7 {
		t.Errorf("semantic hit@5 %d of %d, under the target of 70%%", semHits, n)
	}
	if semHits <= wordHits {
		t.Errorf("semantic (%d) finds no more than text search by any word (%d)", semHits, wordHits)
	}
}

func TestBuiltin_Embed(t *testing.T) {
	m := builtin(t)
	vecs, err := m.Embed(context.Background(), []string{"first week plan for the new hire", "onboarding the new designer",
		"bake bread in the oven", "qqqq xqzv"})
	if err != nil {
		t.Fatal(err)
	}
	dot := func(a, b []float32) (s float32) {
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	if near, far := dot(vecs[0], vecs[1]), dot(vecs[0], vecs[2]); near <= far {
		t.Errorf("hire~designer %.3f <= hire~bread %.3f", near, far)
	}
	if n := dot(vecs[0], vecs[0]); n < 0.999 || n > 1.001 {
		t.Errorf("not normalized: %v", n)
	}
	for _, x := range vecs[3] {
		if x != 0 {
			t.Fatal("unknown words give a vector")
		}
	}
	if m.Dimensions() != 100 || m.Model() != staticembed.BuiltinName {
		t.Errorf("%d dimensions, %q", m.Dimensions(), m.Model())
	}
}

// BenchmarkBuiltin_Embed10k measures embedding 10,000 generated notes,
// chunked as the semantic index chunks them, and the model's memory.
func BenchmarkBuiltin_Embed10k(b *testing.B) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	m := builtin(b)
	load := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&after)
	var texts []string
	words := strings.Fields("plan team budget travel garden recipe server meeting review release design write read note week month")
	for i := range 10000 {
		var s strings.Builder
		fmt.Fprintf(&s, "Note %d\n", i)
		for j := range 150 {
			s.WriteString(words[(i*7+j*13)%len(words)])
			s.WriteByte(' ')
		}
		texts = append(texts, s.String())
	}
	ctx := context.Background()
	for b.Loop() {
		if _, err := m.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(load.Seconds()*1000, "load-ms")
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "model-MiB")
}
