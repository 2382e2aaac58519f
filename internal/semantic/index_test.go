package semantic_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
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
	"github.com/wikid/wikid/internal/wiki"
)

// topicNotes are notes on the embedding server's topics, each worded
// without the words a person would ask with.
var topicNotes = map[string]string{
	"people/first-week.md": "---\ntitle: First week\n---\n# First week\n\nPlan for the new hire: laptop, accounts, a buddy.\n\n## Friday\n\nLunch with colleagues.\n",
	"food/bread.md":        "# Sourdough\n\nMix flour and water, bake in a hot oven.\n",
	"travel/lisbon.md":     "# Lisbon\n\nFlight on Monday, hotel near the river, passport check.\n",
	"money/q3.md":          "# Q3\n\nInvoices are late; spending on taxes grew.\n",
	"garden/spring.md":     "# Spring\n\nSow tomato seeds, compost the soil.\n",
	"ops/outage.md":        "# Outage review\n\nThe database cluster lost its backup; latency rose.\n",
}

type fixture struct {
	dir string
	srv *embedtest.Server
	w   *wiki.Wiki
	sem *semantic.Index
}

// open opens the wiki at dir with a semantic index embedding through url
// with model.
func open(t *testing.T, dir, url, model string, batch int) (*wiki.Wiki, *semantic.Index) {
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
	client, err := embed.New(embed.Options{BaseURL: url, Model: model, BatchSize: batch, Retries: 1, Backoff: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	sem, err := semantic.Open(ctx, filepath.Join(store.Dir(), "semantic"), client, semantic.Options{Logger: logger, Retry: 50 * time.Millisecond})
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

// openedAt returns the commit the semantic index of the wiki at dir
// reflects when it opens, before a wiki brings it to HEAD.
func openedAt(t *testing.T, dir, url, model string) string {
	t.Helper()
	ctx := context.Background()
	client, err := embed.New(embed.Options{BaseURL: url, Model: model, Retries: 1, Backoff: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	sem, err := semantic.Open(ctx, filepath.Join(dir, ".git", "wikid", "semantic"), client, semantic.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer sem.Close(ctx)
	return sem.Commit()
}

func newFixture(t *testing.T, batch int) *fixture {
	t.Helper()
	f := &fixture{dir: gittest.Init(t), srv: embedtest.Start()}
	t.Cleanup(f.srv.Close)
	gittest.Commit(t, f.dir, "notes", topicNotes)
	f.w, f.sem = open(t, f.dir, f.srv.URL, "topics", batch)
	f.settle(t)
	return f
}

// settle waits until the semantic index holds HEAD and has embedded it.
func (f *fixture) settle(t *testing.T) wiki.SemanticState {
	t.Helper()
	if err := f.w.CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	return waitFor(t, f.sem, noneWaiting)
}

func (f *fixture) search(t *testing.T, mode, query string) *wiki.SearchResult {
	t.Helper()
	res, err := f.w.Search(context.Background(), wiki.SearchParams{Query: query, Mode: mode, Snippets: 1})
	if err != nil {
		t.Fatalf("%s %q: %v", mode, query, err)
	}
	return res
}

func paths(res *wiki.SearchResult) []string {
	var out []string
	for _, h := range res.Results {
		out = append(out, h.Path)
	}
	return out
}

func TestIndex_SearchByMeaning(t *testing.T) {
	f := newFixture(t, 0)
	for _, c := range []struct{ query, want string }{
		{"onboarding a designer", "people/first-week"},
		{"recipe for dinner", "food/bread"},
		{"vacation itinerary", "travel/lisbon"},
		{"budget and expenses", "money/q3"},
		{"incident with the servers", "ops/outage"},
	} {
		res := f.search(t, wiki.SearchSemantic, c.query)
		if len(res.Results) == 0 || res.Results[0].Path != c.want || res.Mode != wiki.SearchSemantic {
			t.Errorf("semantic %q: %v (mode %s), want %s first", c.query, paths(res), res.Mode, c.want)
			continue
		}
		if s := res.Results[0].Score; s <= 0 || s > 1.0001 {
			t.Errorf("score %v", s)
		}
		if text := f.search(t, wiki.SearchText, c.query); len(text.Results) > 0 && text.Results[0].Path == c.want {
			t.Errorf("text search found %q too: the case proves nothing", c.query)
		}
		if h := f.search(t, wiki.SearchHybrid, c.query); len(h.Results) == 0 || h.Results[0].Path != c.want || h.Mode != wiki.SearchHybrid {
			t.Errorf("hybrid %q: %v", c.query, paths(h))
		}
	}

	t.Run("snippet is the best chunk", func(t *testing.T) {
		res := f.search(t, wiki.SearchSemantic, "welcome the newcomer")
		hit := res.Results[0]
		if hit.Title != "First week" || len(hit.Snippets) != 1 || !strings.Contains(hit.Snippets[0].Text, "new hire") || hit.Snippets[0].Line < 4 {
			t.Fatalf("%+v", hit)
		}
	})

	t.Run("filters and pages", func(t *testing.T) {
		res, err := f.w.Search(context.Background(), wiki.SearchParams{Query: "onboarding", Mode: wiki.SearchSemantic, Folder: "food"})
		if err != nil || len(res.Results) != 1 || res.Results[0].Path != "food/bread" {
			t.Fatalf("%v %v", paths(res), err)
		}
		var seen []string
		cursor := ""
		for range 10 {
			res, err := f.w.Search(context.Background(), wiki.SearchParams{Query: "hotel", Mode: wiki.SearchHybrid, Limit: 2, Cursor: cursor})
			if err != nil {
				t.Fatal(err)
			}
			seen = append(seen, paths(res)...)
			if cursor = res.NextCursor; cursor == "" {
				break
			}
		}
		if len(seen) != len(topicNotes) {
			t.Errorf("pages gave %v", seen)
		}
		if _, err := f.w.Search(context.Background(), wiki.SearchParams{Query: "hotel", Mode: wiki.SearchSemantic, Cursor: cursor + "x"}); wiki.CodeOf(err) != wiki.CodeInvalidParams {
			t.Errorf("bad cursor: %v", err)
		}
		if _, err := f.w.Search(context.Background(), wiki.SearchParams{Query: "hotel", Mode: wiki.SearchSemantic, Sort: "modified"}); wiki.CodeOf(err) != wiki.CodeInvalidParams {
			t.Errorf("sort: %v", err)
		}
		// Plain words that are no query: hybrid ranks by meaning alone, and says so.
		res, err = f.w.Search(context.Background(), wiki.SearchParams{Query: "hotel (near the river", Mode: wiki.SearchHybrid})
		if err != nil || res.Mode != wiki.SearchSemantic || !strings.Contains(res.Fallback, "not in the query language") || len(res.Results) == 0 {
			t.Errorf("hybrid of no query: %+v %v", res, err)
		}
	})

	t.Run("related", func(t *testing.T) {
		ctx := context.Background()
		if _, err := f.w.Write(ctx, wiki.WriteRequest{Path: "people/buddy", Content: "# Buddy\n\nEvery newcomer gets a colleague to ask.\n"}); err != nil {
			t.Fatal(err)
		}
		f.settle(t)
		res, err := f.w.Related(ctx, wiki.RelatedRequest{Path: "people/first-week", Limit: 3})
		if err != nil || len(res.Results) == 0 || res.Results[0].Path != "people/buddy" {
			t.Fatalf("%v %v", paths(res), err)
		}
		for _, p := range paths(res) {
			if p == "people/first-week" {
				t.Error("a note is related to itself")
			}
		}
		if _, err := f.w.Related(ctx, wiki.RelatedRequest{Path: "nope"}); wiki.CodeOf(err) != wiki.CodeNotFound {
			t.Errorf("missing note: %v", err)
		}
	})

	t.Run("resolve", func(t *testing.T) {
		res, err := f.w.Resolve(context.Background(), wiki.ResolveRequest{Names: []string{"trip abroad", "zzzz qqqq"}, Strategy: wiki.ResolveSemantic, Threshold: 0.8})
		if err != nil {
			t.Fatal(err)
		}
		if r := res.Results[0]; !r.Exists || r.Matches[0].Path != "travel/lisbon" || r.Matches[0].MatchedBy != wiki.MatchedByMeaning {
			t.Errorf("%+v", r)
		}
		if r := res.Results[1]; r.Exists {
			t.Errorf("nonsense resolved: %+v", r)
		}
	})
}

// TestIndex_Incremental checks that only new text is embedded: after
// writes, moves and deletes by the wiki and by git, and after a restart.
func TestIndex_Incremental(t *testing.T) {
	f := newFixture(t, 0)
	ctx := context.Background()
	st := f.settle(t)
	if st.Notes != len(topicNotes) || st.Chunks < len(topicNotes) || st.Unembedded != 0 || st.Dimensions != embedtest.DefaultDimensions {
		t.Fatalf("state %+v", st)
	}
	first := f.srv.Inputs()
	if first != st.Chunks {
		t.Fatalf("embedded %d texts for %d chunks", first, st.Chunks)
	}
	search := func(query string) []string {
		t.Helper()
		defer func() { first = f.srv.Inputs() }() // a query is embedded too
		return paths(f.search(t, wiki.SearchSemantic, query))
	}
	embedded := func(step string, want int) {
		t.Helper()
		f.settle(t)
		if got := f.srv.Inputs() - first; got != want {
			t.Errorf("%s: embedded %d texts, want %d", step, got, want)
		}
		first = f.srv.Inputs()
	}

	if _, err := f.w.Write(ctx, wiki.WriteRequest{Path: "travel/rome", Content: "# Rome\n\nTrain to the airport, then the hotel.\n"}); err != nil {
		t.Fatal(err)
	}
	embedded("write", 1)
	if got := search("holiday journey"); !slices.Contains(got, "travel/rome") {
		t.Errorf("new note not found: %v", got)
	}

	if _, err := f.w.Move(ctx, wiki.MoveRequest{Path: "travel/rome", NewPath: "trips/rome"}); err != nil {
		t.Fatal(err)
	}
	embedded("move", 0)
	if got := search("holiday journey"); !slices.Contains(got, "trips/rome") || slices.Contains(got, "travel/rome") {
		t.Errorf("after the move: %v", got)
	}

	if _, err := f.w.Delete(ctx, wiki.DeleteRequest{Path: "trips/rome", Confirm: true}); err != nil {
		t.Fatal(err)
	}
	embedded("delete", 0)
	if got := search("holiday journey"); slices.Contains(got, "trips/rome") {
		t.Errorf("deleted note found: %v", got)
	}

	// By git: one section of a note changes, another note moves.
	gittest.WriteFiles(t, f.dir, map[string]string{"people/first-week.md": strings.Replace(topicNotes["people/first-week.md"], "Lunch with colleagues.", "Lunch with the team and a soup.", 1)})
	gittest.Git(t, f.dir, "mv", "garden/spring.md", "garden/april.md")
	gittest.Git(t, f.dir, "commit", "-qam", "by hand")
	embedded("git edit and move", 1)
	if got := search("plants and flowers"); len(got) == 0 || got[0] != "garden/april" {
		t.Errorf("after git mv: %v", got)
	}

	// A restart embeds nothing: the vectors are kept by their text, and
	// the notes' chunks are taken as a clean close saved them.
	f.w.Close(ctx)
	f.w, f.sem = open(t, f.dir, f.srv.URL, "topics", 0)
	if head := strings.TrimSpace(gittest.Git(t, f.dir, "rev-parse", "HEAD")); f.sem.Commit() != head {
		t.Errorf("after a clean close the index opens at %q, not HEAD", f.sem.Commit())
	}
	embedded("restart", 0)
	// Without them (a crash), it reads the notes again, and still embeds nothing.
	f.w.Close(ctx)
	os.Remove(filepath.Join(f.dir, ".git", "wikid", "semantic", "notes"))
	if at := openedAt(t, f.dir, f.srv.URL, "topics"); at != "" {
		t.Errorf("without saved notes the index opens at %q", at)
	}
	f.w, f.sem = open(t, f.dir, f.srv.URL, "topics", 0)
	embedded("restart after a crash", 0)
	if got := search("onboarding"); len(got) == 0 || got[0] != "people/first-week" {
		t.Errorf("after restart: %v", got)
	}

	// Another model embeds everything again, and answers in its own space.
	f.w.Close(ctx)
	f.w, f.sem = open(t, f.dir, f.srv.URL, "topics-2", 0)
	st = f.settle(t)
	embedded("model change", st.Chunks)
	if res := f.search(t, wiki.SearchSemantic, "onboarding"); len(res.Results) == 0 || res.Results[0].Path != "people/first-week" {
		t.Errorf("after the model change: %v", paths(res))
	}
	for _, r := range f.srv.Requests()[len(f.srv.Requests())-1:] {
		if r.Model != "topics-2" {
			t.Errorf("asked model %q", r.Model)
		}
	}
}

func TestIndex_Batches(t *testing.T) {
	f := newFixture(t, 2)
	st := f.settle(t)
	reqs := f.srv.Requests()
	if len(reqs) < (st.Chunks+1)/2 {
		t.Errorf("%d requests for %d chunks in batches of 2", len(reqs), st.Chunks)
	}
	for _, r := range reqs {
		if len(r.Inputs) > 2 {
			t.Errorf("a request of %d texts", len(r.Inputs))
		}
	}
}

// TestIndex_Unreachable checks that an endpoint that fails is reported,
// retried, and never answered for by text search without saying so.
func TestIndex_Unreachable(t *testing.T) {
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "notes", topicNotes)
	w, sem := open(t, dir, embedtest.Unreachable(), "topics", 0)
	if err := w.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	st := waitFor(t, sem, func(st wiki.SemanticState) bool { return st.Error != "" })
	if !strings.Contains(st.Error, "unreachable") || st.Pending == 0 || st.Unembedded != len(topicNotes) {
		t.Errorf("state %+v", st)
	}
	_, err := w.Search(ctx, wiki.SearchParams{Query: "onboarding", Mode: wiki.SearchSemantic})
	if wiki.CodeOf(err) != wiki.CodeUnavailable {
		t.Errorf("semantic: %v, want UNAVAILABLE", err)
	}
	res, err := w.Search(ctx, wiki.SearchParams{Query: "flour", Mode: wiki.SearchHybrid})
	if err != nil || res.Mode != wiki.SearchText || !strings.Contains(res.Fallback, "unreachable") || len(res.Results) != 1 {
		t.Errorf("hybrid: %+v %v", res, err)
	}
	status, err := w.Status(ctx)
	if err != nil || !status.Semantic.Enabled || status.Semantic.Error == "" {
		t.Errorf("status %+v %v", status.Semantic, err)
	}

	t.Run("recovers", func(t *testing.T) {
		srv := embedtest.Start()
		defer srv.Close()
		dir := gittest.Init(t)
		gittest.Commit(t, dir, "notes", topicNotes)
		srv.Fail(http.StatusBadGateway, http.StatusBadGateway, http.StatusBadGateway, http.StatusBadGateway)
		w, sem := open(t, dir, srv.URL, "topics", 0)
		f := &fixture{dir: dir, srv: srv, w: w, sem: sem}
		st := f.settle(t)
		if st.Error != "" || st.Unembedded != 0 {
			t.Errorf("after recovery: %+v", st)
		}
	})
}

// TestIndex_Damaged checks that a vectors file cut short or of garbage
// is dropped or trimmed, not trusted.
func TestIndex_Damaged(t *testing.T) {
	f := newFixture(t, 0)
	ctx := context.Background()
	f.w.Close(ctx)
	file := filepath.Join(f.dir, ".git", "wikid", "semantic", "vectors")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(file, data[:len(data)-7], 0o644) // the last vector cut short
	before := f.srv.Inputs()
	f.w, f.sem = open(t, f.dir, f.srv.URL, "topics", 0)
	f.settle(t)
	if n := f.srv.Inputs() - before; n != 1 {
		t.Errorf("re-embedded %d texts after losing one", n)
	}
	f.w.Close(ctx)
	os.WriteFile(file, []byte("garbage"), 0o644)
	f.w, f.sem = open(t, f.dir, f.srv.URL, "topics", 0)
	f.settle(t)
	if res := f.search(t, wiki.SearchSemantic, "onboarding"); len(res.Results) == 0 {
		t.Error("nothing found after rebuilding from garbage")
	}
}

func TestSearch_NotConfigured(t *testing.T) {
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "notes", topicNotes)
	store, _ := gitstore.Open(ctx, dir, gitstore.Options{})
	idx, _ := index.Open(ctx, filepath.Join(store.Dir(), "index"), index.Options{})
	hist, _ := history.Open(ctx, store, history.Options{})
	w, err := wiki.Open(ctx, wiki.Deps{Store: store, Index: idx, History: hist, Graph: graph.New()}, wiki.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(ctx)
	for _, mode := range []string{wiki.SearchSemantic, wiki.SearchHybrid} {
		_, err := w.Search(ctx, wiki.SearchParams{Query: "x", Mode: mode})
		var e *wiki.Error
		if !errors.As(err, &e) || e.Code != wiki.CodeInvalidParams || !strings.Contains(e.Hint, "semantic:") {
			t.Errorf("%s: %v", mode, err)
		}
	}
	if _, err := w.Search(ctx, wiki.SearchParams{Query: "x", Mode: "vector"}); wiki.CodeOf(err) != wiki.CodeInvalidParams {
		t.Errorf("unknown mode: %v", err)
	}
	if _, ok := w.SemanticState(); ok {
		t.Error("semantic state without semantic search")
	}
}

// TestSearch_WaitsForEmbedding checks that a search right after opening
// waits for a short embedding instead of answering from none of it.
func TestSearch_WaitsForEmbedding(t *testing.T) {
	srv := embedtest.Start()
	defer srv.Close()
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "notes", topicNotes)
	w, _ := open(t, dir, srv.URL, "topics", 0)
	res, err := w.Search(context.Background(), wiki.SearchParams{Query: "onboarding the new designer", Mode: wiki.SearchSemantic})
	if err != nil || res.Unembedded != 0 || len(res.Results) == 0 || res.Results[0].Path != "people/first-week" {
		t.Fatalf("%+v %v", res, err)
	}
}
