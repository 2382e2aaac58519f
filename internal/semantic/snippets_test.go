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

func TestSearch_SnippetsOfShownNotes(t *testing.T) {
	ctx := context.Background()
	logger := slog.New(slog.DiscardHandler)
	dir := gittest.Init(t)
	notes := map[string]string{}
	for i := range 12 {
		notes[fmt.Sprintf("plans/plan-%02d.md", i)] = fmt.Sprintf("# Plan %d\n\nThe plan for the new hire, week %d.\n", i, i)
	}
	gittest.Commit(t, dir, "plans", notes)
	srv := embedtest.Start()
	t.Cleanup(srv.Close)
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
	client, err := embed.New(embed.Options{BaseURL: srv.URL, Model: "topics", Retries: 1, Backoff: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	sem, err := semantic.Open(ctx, filepath.Join(store.Dir(), "semantic"), client, semantic.Options{Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	counter := &snippetCounter{Index: idx}
	w, err := wiki.Open(ctx, wiki.Deps{Store: store, Index: counter, History: hist, Graph: graph.New(), Semantic: sem}, wiki.Options{Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(ctx) })
	f := &fixture{dir: dir, srv: srv, w: w, sem: sem}
	f.settle(t)

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
