package semantic_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/history"
	"github.com/wikid/wikid/internal/index"
	"github.com/wikid/wikid/internal/semantic"
	"github.com/wikid/wikid/internal/wiki"
)

// heldEmbedder embeds any text at once, into a vector drawn from its hash,
// but for the call after hold: that one tells entered and waits for the
// error the test sends it (nil to embed).
type heldEmbedder struct {
	mu      sync.Mutex
	gate    chan error
	entered chan struct{}
}

func newHeldEmbedder() *heldEmbedder { return &heldEmbedder{entered: make(chan struct{}, 1)} }

// hold makes the next call wait; the channel it returns answers it.
func (e *heldEmbedder) hold() chan<- error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.gate = make(chan error)
	return e.gate
}

func (e *heldEmbedder) Model() string    { return "held" }
func (e *heldEmbedder) Endpoint() string { return "test" }
func (e *heldEmbedder) BatchSize() int   { return 64 }

func (e *heldEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e.mu.Lock()
	gate := e.gate
	e.gate = nil
	e.mu.Unlock()
	if gate != nil {
		e.entered <- struct{}{}
		select {
		case err := <-gate:
			if err != nil {
				return nil, err
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		sum := sha256.Sum256([]byte(t))
		v := make([]float32, 8)
		for j := range v {
			v[j] = float32(sum[j]) + 1
		}
		out[i] = v
	}
	return out, nil
}

// openHeld opens a wiki over dir whose semantic index embeds with emb,
// handing the index to wrap for the wiki (as is when wrap is nil).
func openHeld(t *testing.T, dir string, emb semantic.Embedder, wrap func(*semantic.Index) wiki.Semantic) (*wiki.Wiki, *semantic.Index) {
	t.Helper()
	ctx := context.Background()
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
	sem, err := semantic.Open(ctx, filepath.Join(store.Dir(), "semantic"), emb, semantic.Options{Logger: logger, Retry: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	var s wiki.Semantic = sem
	if wrap != nil {
		s = wrap(sem)
	}
	w, err := wiki.Open(ctx, wiki.Deps{Store: store, Index: idx, History: hist, Graph: graph.New(), Semantic: s},
		wiki.Options{Logger: logger, Committer: wiki.Identity{Name: "wikid", Email: "wikid@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(ctx) })
	if err := w.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	return w, sem
}

// embedded waits, on the index's signal, until nothing waits for a
// vector.
func embedded(t *testing.T, sem *semantic.Index) {
	t.Helper()
	for {
		changed := sem.Changed()
		if st := sem.State(); st.Pending == 0 {
			return
		} else if st.Error != "" {
			t.Fatalf("embedding failed: %s", st.Error)
		}
		<-changed
	}
}

// isClosed says whether ch is closed now.
func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// TestIndex_Changed holds the embedder in the middle of a batch: the
// channel Changed gave stays open, and is closed when the batch is stored,
// then, for the next batch, when the embedder fails.
func TestIndex_Changed(t *testing.T) {
	dir := gittest.Init(t)
	emb := newHeldEmbedder()
	answer := emb.hold()
	gittest.Commit(t, dir, "seed", map[string]string{"a.md": "# Alpha\n\nAirships over the bay.\n"})
	w, sem := openHeld(t, dir, emb, nil)

	<-emb.entered // the batch of a.md is being embedded
	changed := sem.Changed()
	if st := sem.State(); st.Pending == 0 {
		t.Fatalf("nothing pending while the batch is held: %+v", st)
	}
	if isClosed(changed) {
		t.Fatal("Changed is closed while nothing moved")
	}
	answer <- nil
	<-changed
	if st := sem.State(); st.Pending != 0 || st.Error != "" {
		t.Fatalf("after the batch was stored: %+v", st)
	}

	answer = emb.hold()
	gittest.Commit(t, dir, "b", map[string]string{"b.md": "# Bravo\n\nBread in a hot oven.\n"})
	if err := w.CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-emb.entered
	changed = sem.Changed()
	if isClosed(changed) {
		t.Fatal("Changed is closed while nothing moved")
	}
	answer <- errors.New("the model is down")
	<-changed
	if st := sem.State(); st.Pending == 0 || !strings.Contains(st.Error, "the model is down") {
		t.Fatalf("after the batch failed: %+v", st)
	}
}

// readCounter is a semantic index whose State, once armed, counts its
// reads and says when one found chunks pending.
type readCounter struct {
	*semantic.Index
	armed   atomic.Bool
	reads   atomic.Int32
	once    sync.Once
	pending chan struct{}
}

func (c *readCounter) State() wiki.SemanticState {
	st := c.Index.State()
	if c.armed.Load() {
		c.reads.Add(1)
		if st.Pending > 0 {
			c.once.Do(func() { close(c.pending) })
		}
	}
	return st
}

// TestWiki_SearchWakesOnEmbedded holds the embedding of a note just
// committed while a search by meaning waits for it. The search reads the
// index's state when it begins to wait and again only when told (a
// progress report aside), not on a clock: a poll every 10 ms would have
// read it many times while the batch was held. Once the vectors are
// stored, it answers with the note embedded.
func TestWiki_SearchWakesOnEmbedded(t *testing.T) {
	dir := gittest.Init(t)
	emb := newHeldEmbedder()
	gittest.Commit(t, dir, "seed", map[string]string{"a.md": "# Alpha\n\nAirships over the bay.\n"})
	counter := &readCounter{pending: make(chan struct{})}
	w, sem := openHeld(t, dir, emb, func(x *semantic.Index) wiki.Semantic { counter.Index = x; return counter })
	embedded(t, sem)

	answer := emb.hold()
	gittest.Commit(t, dir, "b", map[string]string{"b.md": "# Bravo\n\nBread in a hot oven.\n"})
	if err := w.CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-emb.entered
	counter.armed.Store(true)
	var reports atomic.Int32
	ctx := wiki.WithProgress(context.Background(), func(wiki.Progress) { reports.Add(1) })
	type answered struct {
		res *wiki.SearchResult
		err error
	}
	done := make(chan answered, 1)
	go func() {
		res, err := w.Search(ctx, wiki.SearchParams{Query: "bread", Mode: wiki.SearchSemantic})
		done <- answered{res, err}
	}()
	<-counter.pending
	time.Sleep(200 * time.Millisecond) // time for a poll to show itself
	reads, reported := counter.reads.Load(), reports.Load()
	answer <- nil
	got := <-done
	if got.err != nil {
		t.Fatal(got.err)
	}
	// Two reads before it waits (is there a static model, is anything
	// pending), and one after each progress report.
	if reads > 2+reported {
		t.Errorf("the search read the state %d times while the batch was held, with %d progress reports", reads, reported)
	}
	// A machine too busy to release the batch within the search's wait
	// (3 s, some five progress reports) lets it answer without the note.
	if (got.res.Unembedded != 0 || got.res.Fallback != "") && reports.Load() < 4 {
		t.Errorf("the search answered before the note was embedded, after %d progress reports: %+v", reports.Load(), got.res)
	}
	if len(got.res.Results) == 0 {
		t.Errorf("the search found nothing: %+v", got.res)
	}
}
