package graph_test

import (
	"testing"

	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/storetest"
	"github.com/wikid/wikid/internal/wiki"
)

func TestGraph_conformance(t *testing.T) {
	for _, r := range []wiki.LinkResolution{wiki.ResolveWiki, wiki.ResolveObsidian} {
		t.Run(string(r), func(t *testing.T) {
			storetest.Run(t, storetest.Case{
				New:  func(testing.TB, wiki.Store, string) wiki.DerivedStore { return graph.NewResolving(r) },
				Dump: func(_ testing.TB, s wiki.DerivedStore) string { return graph.Dump(s.(*graph.Graph)) },
			})
		})
	}
	// A graph that tells its resolution from the commits: the last step
	// commits a .gitignore that leaves .obsidian out.
	t.Run("detecting", func(t *testing.T) {
		storetest.Run(t, storetest.Case{
			New: func(testing.TB, wiki.Store, string) wiki.DerivedStore {
				return graph.NewDetecting(wiki.ResolveWiki, nil)
			},
			Dump: func(_ testing.TB, s wiki.DerivedStore) string {
				g := s.(*graph.Graph)
				return string(g.Resolution()) + "\n" + graph.Dump(g)
			},
		})
	})
}
