package semantic_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/semantic"
	"github.com/wikid/wikid/internal/storetest"
	"github.com/wikid/wikid/internal/wiki"
)

// stuckEmbedder is a model that never answers: every chunk waits.
type stuckEmbedder struct{ heldEmbedder }

func (*stuckEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func TestIndex_conformance(t *testing.T) {
	// The model reads no note titled Bravo or Hotel.
	reads := func(text string) bool { return !strings.Contains(text, "Bravo") && !strings.Contains(text, "Hotel") }
	for _, tt := range []struct {
		name   string
		emb    semantic.Embedder
		opts   semantic.Options
		settle bool
	}{
		{"embedded", newHeldEmbedder(), semantic.Options{}, true},
		{"unread notes and a static model", newHeldEmbedder(), semantic.Options{Reads: reads, Static: newHeldEmbedder()}, true},
		// What waits for the model must be what the notes at HEAD hold,
		// not the texts of notes edited or deleted since.
		{"waiting for the model", &stuckEmbedder{}, semantic.Options{Static: newHeldEmbedder()}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			storetest.Run(t, storetest.Case{
				New: func(tb testing.TB, _ wiki.Store, dir string) wiki.DerivedStore {
					opts := tt.opts
					opts.Logger = slog.New(slog.DiscardHandler)
					x, err := semantic.Open(context.Background(), dir, tt.emb, opts)
					if err != nil {
						tb.Fatal(err)
					}
					tb.Cleanup(func() { x.Close(context.Background()) })
					return x
				},
				Dump: func(_ testing.TB, s wiki.DerivedStore) string { return semantic.Dump(s.(*semantic.Index), tt.settle) },
			})
		})
	}
}
