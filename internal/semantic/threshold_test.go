package semantic_test

import (
	"context"
	"testing"

	"github.com/wikid/wikid/internal/embed"
	"github.com/wikid/wikid/internal/embed/embedtest"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/semantic"
	"github.com/wikid/wikid/internal/wiki"
)

// TestIndex_Threshold checks that a semantic name resolution without a
// threshold takes the model's (Options.Threshold) when the index has one,
// wiki.DefaultSemanticThreshold when it has none, and that a request's own
// threshold still wins.
func TestIndex_Threshold(t *testing.T) {
	srv := embedtest.Start()
	t.Cleanup(srv.Close)
	ctx := context.Background()
	resolve := func(t *testing.T, w *wiki.Wiki, threshold float64) []wiki.NameMatch {
		t.Helper()
		res, err := w.Resolve(ctx, wiki.ResolveRequest{Names: []string{"trip abroad"}, Strategy: wiki.ResolveSemantic, Threshold: threshold})
		if err != nil {
			t.Fatal(err)
		}
		return res.Results[0].Matches
	}
	opened := func(t *testing.T, threshold float64) *wiki.Wiki {
		t.Helper()
		dir := gittest.Init(t)
		gittest.Commit(t, dir, "notes", topicNotes)
		client, err := embed.New(embed.Options{BaseURL: srv.URL, Model: "topics"})
		if err != nil {
			t.Fatal(err)
		}
		w, sem := openWith(t, dir, client, semantic.Options{Threshold: threshold, TextShare: 0.6})
		if st := settled(t, w, sem); st.Threshold != threshold || st.TextShare != 0.6 {
			t.Fatalf("state's threshold %g and text share %g, want the options' %g and 0.6", st.Threshold, st.TextShare, threshold)
		}
		return w
	}

	// Without a threshold of its own, the index resolves at the wiki's
	// default; the nearest note's cosine says where a model's threshold
	// would keep it or drop it.
	w := opened(t, 0)
	all := resolve(t, w, 0.01)
	if len(all) == 0 || all[0].Path != "travel/lisbon" {
		t.Fatalf("nearest to a trip abroad: %+v", all)
	}
	best := all[0].Score
	var want int
	for _, m := range all {
		if m.Score >= wiki.DefaultSemanticThreshold {
			want++
		}
	}
	if got := resolve(t, w, 0); len(got) != want {
		t.Errorf("at the default threshold %d matches, want the %d at or over %g", len(got), want, wiki.DefaultSemanticThreshold)
	}
	if best <= 0.02 || best >= 0.99 {
		t.Fatalf("the nearest note's cosine %g leaves no room for thresholds either side", best)
	}

	// A model whose threshold is over the nearest note's cosine finds no
	// note; one under it finds the note; a request's threshold wins.
	above := opened(t, best+0.01)
	if got := resolve(t, above, 0); len(got) != 0 {
		t.Errorf("at the model's threshold %g, over the best cosine %g: %+v", best+0.01, best, got)
	}
	if got := resolve(t, above, best-0.01); len(got) == 0 || got[0].Path != "travel/lisbon" {
		t.Errorf("a request's threshold under the best cosine: %+v", got)
	}
	below := opened(t, best-0.01)
	if got := resolve(t, below, 0); len(got) == 0 || got[0].Path != "travel/lisbon" {
		t.Errorf("at the model's threshold %g, under the best cosine %g: %+v", best-0.01, best, got)
	}
}
