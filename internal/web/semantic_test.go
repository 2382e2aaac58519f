package web_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
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
	"github.com/wikid/wikid/internal/web"
	"github.com/wikid/wikid/internal/wiki"
)

// TestSearch_ByMeaning checks the search page of a wiki with semantic
// search: a choice of mode, and what the result says of it.
func TestSearch_ByMeaning(t *testing.T) {
	ctx := context.Background()
	emb := embedtest.Start()
	defer emb.Close()
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "notes", map[string]string{
		"people/first-week.md": "# First week\n\nPlan for the new hire: laptop and a buddy.\n",
		"food/bread.md":        "# Bread\n\nFlour, water, a hot oven.\n",
	})
	store, err := gitstore.Open(ctx, dir, gitstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	idx, err := index.Open(ctx, filepath.Join(store.Dir(), "index"), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	client, _ := embed.New(embed.Options{BaseURL: emb.URL, Model: "topics"})
	sem, err := semantic.Open(ctx, filepath.Join(store.Dir(), "semantic"), client, semantic.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hist, err := history.Open(ctx, store, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := wiki.Open(ctx, wiki.Deps{Store: store, Index: idx, History: hist, Graph: graph.New(), Semantic: sem}, wiki.Options{Logger: slog.New(slog.DiscardHandler)})
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
	srv := httptest.NewServer(web.New(w, web.Options{}))
	defer srv.Close()

	_, form := get(t, srv, "/search")
	if !strings.Contains(form, `<select name="mode"`) {
		t.Errorf("no mode to choose:\n%s", form)
	}
	_, found := get(t, srv, "/search?q=onboarding+the+new+designer&mode=semantic")
	if !strings.Contains(found, "ranked by meaning") || !strings.Contains(found, `<a href="/note/people/first-week">First week</a>`) ||
		!strings.Contains(found, `<option value="semantic" selected>`) {
		t.Errorf("search by meaning:\n%s", found)
	}
	emb.Close()
	_, fell := get(t, srv, "/search?q=flour&mode=hybrid")
	if !strings.Contains(fell, `class="conflict">the semantic ranking failed, so these are text results`) {
		t.Errorf("hybrid with the endpoint down:\n%s", fell)
	}
}
