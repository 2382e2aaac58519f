package wiki_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/wiki"
)

// TestOpen_RequiredDeps checks that a wiki opens only over every adapter
// production wires: no read or mutation runs without a store it needs.
func TestOpen_RequiredDeps(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "# A\n"})
	store, err := gitstore.Open(ctx, dir, gitstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close(ctx)
	all := deps(t, store, nil, nil)
	t.Cleanup(func() {
		all.Index.Close(ctx)
		all.History.Close(ctx)
	})
	for _, tt := range []struct {
		name string
		drop func(*wiki.Deps)
		want string
	}{
		{"store", func(d *wiki.Deps) { d.Store = nil }, "Deps.Store"},
		{"search index", func(d *wiki.Deps) { d.Index = nil }, "Deps.Index"},
		{"history index", func(d *wiki.Deps) { d.History = nil }, "Deps.History"},
		{"link graph", func(d *wiki.Deps) { d.Graph = nil }, "Deps.Graph"},
	} {
		t.Run("without a "+tt.name, func(t *testing.T) {
			d := all
			tt.drop(&d)
			w, err := wiki.Open(ctx, d, wiki.Options{})
			if err == nil {
				w.Close(ctx)
				t.Fatal("opened")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not name %s", err, tt.want)
			}
		})
	}
}
