package index_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/wikid/wikid/internal/index"
	"github.com/wikid/wikid/internal/storetest"
	"github.com/wikid/wikid/internal/wiki"
)

func TestIndex_conformance(t *testing.T) {
	storetest.Run(t, storetest.Case{
		New: func(tb testing.TB, _ wiki.Store, dir string) wiki.DerivedStore {
			x, err := index.Open(context.Background(), filepath.Join(dir, "index"), index.Options{})
			if err != nil {
				tb.Fatal(err)
			}
			tb.Cleanup(func() { x.Close(context.Background()) })
			return x
		},
		Dump: func(tb testing.TB, s wiki.DerivedStore) string {
			d, err := index.Dump(s.(*index.Index))
			if err != nil {
				tb.Fatal(err)
			}
			return d
		},
	})
}
