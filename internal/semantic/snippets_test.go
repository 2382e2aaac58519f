package semantic_test

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/embed"
	"github.com/wikid/wikid/internal/embed/embedtest"
	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/history"
	"github.com/wikid/wikid/internal/index"
	"github.com/wikid/wikid/internal/semantic"
	"github.com/wikid/wikid/internal/wiki"
)

// snippetCounter is a search index that counts the hits it made
// snippets for.
type snippetCounter struct {
	wiki.Index
	hits atomic.Int64
}

func (s *snippetCounter) Search(ctx context.Context, req wiki.SearchRequest) (*wiki.SearchResult, error) {
	res, err := s.Index.Search(ctx, req)
	if err == nil && req.Snippets > 0 {
		s.hits.Add(int64(len(res.Results)))
	}
	return res, err
}

// openWrapped opens the wiki at dir with a semantic index embedding through
// url, its search index wrapped by wrap and its semantic index by
// wrapSem (nil for none), and waits until it is embedded.
func openWrapped(tb testing.TB, dir, url string, wrap func(wiki.Index) wiki.Index, wrapSem func(wiki.Semantic) wiki.Semantic) *wiki.Wiki {
	tb.Helper()
	ctx := context.Background()
	logger := slog.New(slog.DiscardHandler)
	store, err := gitstore.Open(ctx, dir, gitstore.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	idx, err := index.Open(ctx, filepath.Join(store.Dir(), "index"), index.Options{Logger: logger})
	if err != nil {
		tb.Fatal(err)
	}
	hist, err := history.Open(ctx, store, history.Options{Logger: logger})
	if err != nil {
		tb.Fatal(err)
	}
	client, err := embed.New(embed.Options{BaseURL: url, Model: "topics", Retries: 1, Backoff: 10 * time.Millisecond})
	if err != nil {
		tb.Fatal(err)
	}
	sem, err := semantic.Open(ctx, filepath.Join(store.Dir(), "semantic"), client, semantic.Options{Logger: logger})
	if err != nil {
		tb.Fatal(err)
	}
	var s wiki.Semantic = sem
	if wrapSem != nil {
		s = wrapSem(sem)
	}
	w, err := wiki.Open(ctx, wiki.Deps{Store: store, Index: wrap(idx), History: hist, Graph: graph.New(), Semantic: s}, wiki.Options{Logger: logger})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { w.Close(ctx) })
	if err := w.CatchUp(ctx); err != nil {
		tb.Fatal(err)
	}
	if st := waitFor(tb, sem, func(st wiki.SemanticState) bool { return st.Pending == 0 || st.Error != "" }); st.Error != "" {
		tb.Fatal(st.Error)
	}
	return w
}

func TestSearch_SnippetsOfShownNotes(t *testing.T) {
	ctx := context.Background()
	dir := gittest.Init(t)
	notes := map[string]string{}
	for i := range 12 {
		notes[fmt.Sprintf("plans/plan-%02d.md", i)] = fmt.Sprintf("# Plan %d\n\nThe plan for the new hire, week %d.\n", i, i)
	}
	gittest.Commit(t, dir, "plans", notes)
	srv := embedtest.Start()
	t.Cleanup(srv.Close)
	counter := &snippetCounter{}
	w := openWrapped(t, dir, srv.URL, func(idx wiki.Index) wiki.Index {
		counter.Index = idx
		return counter
	}, nil)

	res, err := w.Search(ctx, wiki.SearchParams{Query: "plan for the new hire", Mode: wiki.SearchHybrid, Limit: 3, Snippets: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 3 || res.Total < 12 {
		t.Fatalf("%d results of %d, want 3 of 12", len(res.Results), res.Total)
	}
	for _, h := range res.Results {
		if len(h.Snippets) != 1 {
			t.Errorf("%s: snippets %+v, want one", h.Path, h.Snippets)
		}
	}
	if n := counter.hits.Load(); n != 3 {
		t.Errorf("snippets made for %d notes, want the 3 shown", n)
	}
}

// nearestCounter is a semantic index that counts its Nearest scans.
type nearestCounter struct {
	wiki.Semantic
	scans atomic.Int64
}

func (n *nearestCounter) Nearest(ctx context.Context, text string, limit int, keep func(string) bool) ([]wiki.Neighbour, error) {
	n.scans.Add(1)
	return n.Semantic.Nearest(ctx, text, limit, keep)
}

func TestSearch_HubProbesKept(t *testing.T) {
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "notes", topicNotes)
	srv := embedtest.Start()
	t.Cleanup(srv.Close)
	counter := &nearestCounter{}
	w := openWrapped(t, dir, srv.URL, func(idx wiki.Index) wiki.Index { return idx }, func(s wiki.Semantic) wiki.Semantic {
		counter.Semantic = s
		return counter
	})
	hybrid := func(q string) {
		t.Helper()
		if _, err := w.Search(ctx, wiki.SearchParams{Query: q, Mode: wiki.SearchHybrid}); err != nil {
			t.Fatal(err)
		}
	}
	hybrid("recipe for dinner")
	first := counter.scans.Load()
	if first < 2 {
		t.Fatalf("%d scans: the hub probes were not scanned", first)
	}
	hybrid("vacation itinerary")
	if n := counter.scans.Load() - first; n != 1 {
		t.Errorf("a second hybrid search scanned %d times, want once: the probes' neighbours are kept", n)
	}
	gittest.Commit(t, dir, "one more", map[string]string{"food/soup.md": "# Soup\n\nLeeks and potatoes.\n"})
	if err := w.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, counter, noneWaiting)
	before := counter.scans.Load()
	hybrid("vacation itinerary")
	if n := counter.scans.Load() - before; n != first {
		t.Errorf("after a commit, a hybrid search scanned %d times, want %d: the probes again", n, first)
	}
}
