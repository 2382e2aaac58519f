package semantic_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/wikid/wikid/internal/embed/embedtest"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// BenchmarkSearch_modes measures a search of each mode on a generated wiki
// of 5,000 notes, embedded by the test endpoint: a hybrid search is a text
// search, a semantic one and the hub damping's (see wiki's fuse.go), whose
// share is what hybrid costs beyond the two. The questions repeat, so
// their vectors come from the cache.
func BenchmarkSearch_modes(b *testing.B) {
	dir := b.TempDir()
	gittest.Generate(b, dir, 5000, 200)
	srv := embedtest.Start()
	b.Cleanup(srv.Close)
	w := openWrapped(b, dir, srv.URL, func(idx wiki.Index) wiki.Index { return idx }, nil)
	queries := []string{"onboarding the new designer", "recipe for dinner", "vacation itinerary", "budget and expenses"}
	ctx := context.Background()
	for _, mode := range []string{wiki.SearchText, wiki.SearchSemantic, wiki.SearchHybrid} {
		b.Run(mode, func(b *testing.B) {
			i := 0
			for b.Loop() {
				_, err := w.Search(ctx, wiki.SearchParams{Query: queries[i%len(queries)], Mode: mode, Snippets: 1})
				if err != nil {
					b.Fatal(fmt.Errorf("%s: %w", mode, err))
				}
				i++
			}
		})
	}
}
