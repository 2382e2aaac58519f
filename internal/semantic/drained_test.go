package semantic_test

import (
	"context"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/embed"
	"github.com/wikid/wikid/internal/embed/embedtest"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/semantic"
)

// TestIndex_Drained tells the program once each time the background
// embedding has emptied its queue, so that it can hand the encoder's
// working memory back: once for the first embedding, once more for an
// edit, and not while nothing waits.
func TestIndex_Drained(t *testing.T) {
	srv := embedtest.Start()
	t.Cleanup(srv.Close)
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "notes", topicNotes)
	client, err := embed.New(embed.Options{BaseURL: srv.URL, Model: "topics", BatchSize: 2, Retries: 1, Backoff: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	drained := make(chan struct{}, 10)
	w, sem := openWith(t, dir, client, semantic.Options{Drained: func() { drained <- struct{}{} }})
	waitDrained := func(what string) {
		t.Helper()
		select {
		case <-drained:
		case <-time.After(time.Minute):
			t.Fatalf("not told the queue drained after %s", what)
		}
	}
	if err := w.CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitDrained("the first embedding")
	waitFor(t, sem, noneWaiting)
	gittest.Commit(t, dir, "edit", map[string]string{"food/bread.md": "# Sourdough\n\nRye flour this time.\n"})
	if err := w.CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitDrained("an edit")
	if n := len(drained); n != 0 {
		t.Errorf("told %d more times with nothing embedded", n)
	}
}
