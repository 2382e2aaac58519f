package semantic_test

import (
	"context"
	"hash/fnv"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/history"
	"github.com/wikid/wikid/internal/index"
	"github.com/wikid/wikid/internal/semantic"
	"github.com/wikid/wikid/internal/wiki"
)

// wordsEmbedder embeds a text as the words it has, each hashed to one of
// 64 numbers: texts that share words are near. It counts the texts it
// embeds by text, and, while gate is open (not nil and not closed), embeds
// nothing until it closes.
type wordsEmbedder struct {
	model string
	gate  chan struct{}

	mu     sync.Mutex
	counts map[string]int
	total  int
}

func newWords(model string) *wordsEmbedder {
	return &wordsEmbedder{model: model, counts: map[string]int{}}
}

func (e *wordsEmbedder) Model() string    { return e.model }
func (e *wordsEmbedder) Endpoint() string { return "memory" }
func (e *wordsEmbedder) BatchSize() int   { return 2 }

// hold makes Embed wait until the function it returns is called.
func (e *wordsEmbedder) hold() func() {
	gate := make(chan struct{})
	e.mu.Lock()
	e.gate = gate
	e.mu.Unlock()
	return sync.OnceFunc(func() { close(gate) })
}

func (e *wordsEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e.mu.Lock()
	gate := e.gate
	e.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	e.mu.Lock()
	for _, t := range texts {
		e.counts[t]++
		e.total++
	}
	e.mu.Unlock()
	return vectorsOf(texts), nil
}

// EmbedQuery embeds a query, without waiting for hold's release: a model
// embeds a query while its passages wait.
func (e *wordsEmbedder) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	return vectorsOf([]string{text})[0], nil
}

func vectorsOf(texts []string) [][]float32 {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 64)
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) }) {
			h := fnv.New32a()
			h.Write([]byte(w))
			v[h.Sum32()%64]++
		}
		out[i] = v
	}
	return out
}

// embedded returns how many texts e embedded, and how many of them more
// than once.
func (e *wordsEmbedder) embedded() (total, twice int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, n := range e.counts {
		twice += n - 1
	}
	return e.total, twice
}

// openWith opens the wiki at dir with a semantic index embedding with emb.
func openWith(t testing.TB, dir string, emb semantic.Embedder, opts semantic.Options) (*wiki.Wiki, *semantic.Index) {
	t.Helper()
	ctx := context.Background()
	logger := slog.New(slog.DiscardHandler)
	opts.Logger = logger
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
	sem, err := semantic.Open(ctx, filepath.Join(store.Dir(), "semantic"), emb, opts)
	if err != nil {
		t.Fatal(err)
	}
	w, err := wiki.Open(ctx, wiki.Deps{Store: store, Index: idx, History: hist, Graph: graph.New(), Semantic: sem},
		wiki.Options{Logger: logger, Committer: wiki.Identity{Name: "wikid", Email: "wikid@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(ctx) })
	return w, sem
}

// settled waits until w's semantic index, sem, holds HEAD and has
// embedded it.
func settled(t *testing.T, w *wiki.Wiki, sem *semantic.Index) wiki.SemanticState {
	t.Helper()
	if err := w.CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	return waitFor(t, sem, noneWaiting)
}

// TestIndex_EmbedsOnlyChanges counts the texts embedded across a branch
// switch and back, a history rewrite (the index rebuilt from nothing) and
// a restart in the middle of the embedding: only what changed, and no
// text twice.
func TestIndex_EmbedsOnlyChanges(t *testing.T) {
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "notes", topicNotes)
	emb := newWords("words")
	release := emb.hold()
	w, sem := openWith(t, dir, emb, semantic.Options{Workers: 2})
	if err := w.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	chunks := sem.State().Chunks

	// A restart before anything is embedded, then one after some is.
	w.Close(ctx)
	release()
	w, sem = openWith(t, dir, emb, semantic.Options{Workers: 2})
	st := settled(t, w, sem)
	if total, twice := emb.embedded(); total != chunks || twice != 0 || st.Chunks != chunks {
		t.Fatalf("first build: embedded %d texts (%d twice) for %d chunks", total, twice, chunks)
	}
	step := func(name string, want int) {
		t.Helper()
		before, _ := emb.embedded()
		settled(t, w, sem)
		if got, _ := emb.embedded(); got-before != want {
			t.Errorf("%s: embedded %d texts, want %d", name, got-before, want)
		}
	}

	// Another branch: one section edited, one note added.
	gittest.Git(t, dir, "checkout", "-q", "-b", "other")
	gittest.Commit(t, dir, "other", map[string]string{
		"people/first-week.md": strings.Replace(topicNotes["people/first-week.md"], "Lunch with colleagues.", "Dinner with the team.", 1),
		"travel/rome.md":       "# Rome\n\nTrain to the airport, then the hotel.\n",
	})
	step("commit on a branch", 2)
	gittest.Git(t, dir, "checkout", "-q", "main")
	step("switch back", 0)
	gittest.Git(t, dir, "checkout", "-q", "other")
	step("switch again", 0)

	// A rewritten history: the index is rebuilt from nothing.
	gittest.Git(t, dir, "commit", "-q", "--amend", "-m", "other, reworded")
	step("history rewritten", 0)
	if _, twice := emb.embedded(); twice != 0 {
		t.Errorf("%d texts embedded twice", twice)
	}
	if sem.State().Notes != len(topicNotes)+1 {
		t.Errorf("state %+v", sem.State())
	}
}

// TestIndex_StaticLayer searches while the model has embedded nothing: the
// static model ranks every note, and the result says so; once the model
// has embedded them, it ranks them alone.
func TestIndex_StaticLayer(t *testing.T) {
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "notes", topicNotes)
	model, static := newWords("model"), newWords("static")
	release := model.hold()
	w, sem := openWith(t, dir, model, semantic.Options{Static: static, Workers: 2})

	res, err := w.Search(ctx, wiki.SearchParams{Query: "sourdough flour oven", Mode: wiki.SearchSemantic, Snippets: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Mode != wiki.SearchSemantic || res.Fallback != "" || !res.Static || res.Embedded != 0 || res.Unembedded != len(topicNotes) {
		t.Errorf("before the model: mode %q fallback %q static %v embedded %d unembedded %d", res.Mode, res.Fallback, res.Static, res.Embedded, res.Unembedded)
	}
	if len(res.Results) == 0 || res.Results[0].Path != "food/bread" || len(res.Results[0].Snippets) == 0 {
		t.Errorf("before the model: %v", paths(res))
	}
	st := sem.State()
	if st.Static != "static" || st.Pending != st.Chunks || st.Rate != 0 || st.ETASeconds != 0 {
		t.Errorf("state before the model: %+v", st)
	}
	if total, _ := static.embedded(); total != st.Chunks+1 {
		t.Errorf("the static model embedded %d texts for %d chunks and a query", total, st.Chunks)
	}

	release()
	st = settled(t, w, sem)
	if st.Rate <= 0 || st.ETASeconds != 0 {
		t.Errorf("state once embedded: %+v", st)
	}
	before, _ := static.embedded()
	res, err = w.Search(ctx, wiki.SearchParams{Query: "sourdough flour oven", Mode: wiki.SearchSemantic})
	if err != nil {
		t.Fatal(err)
	}
	if res.Static || res.Embedded != len(topicNotes) || res.Unembedded != 0 || len(res.Results) == 0 || res.Results[0].Path != "food/bread" {
		t.Errorf("after the model: static %v embedded %d %v", res.Static, res.Embedded, paths(res))
	}
	if after, _ := static.embedded(); after != before {
		t.Errorf("the static model embedded %d texts once the model had embedded every chunk", after-before)
	}

	// A new note is ranked by the static model until the model embeds it.
	release = model.hold()
	defer release()
	if _, err := w.Write(ctx, wiki.WriteRequest{Path: "food/rye", Content: "# Rye loaf\n\nSourdough rye with flour and seeds, a slow oven.\n"}); err != nil {
		t.Fatal(err)
	}
	res, err = w.Search(ctx, wiki.SearchParams{Query: "sourdough rye flour", Mode: wiki.SearchSemantic})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Static || res.Unembedded != 1 || !slices.Contains(paths(res)[:min(2, len(res.Results))], "food/rye") {
		t.Errorf("a new note: static %v unembedded %d %v", res.Static, res.Unembedded, paths(res))
	}
}
