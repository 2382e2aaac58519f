package history_test

import (
	"context"
	"testing"

	"github.com/wikid/wikid/internal/history"
	"github.com/wikid/wikid/internal/storetest"
	"github.com/wikid/wikid/internal/wiki"
)

func TestIndex_conformance(t *testing.T) {
	storetest.Run(t, storetest.Case{
		New: func(tb testing.TB, store wiki.Store, dir string) wiki.DerivedStore {
			x, err := history.Open(context.Background(), storetest.InDir(store, dir), history.Options{})
			if err != nil {
				tb.Fatal(err)
			}
			tb.Cleanup(func() { x.Close(context.Background()) })
			return x
		},
		Dump: func(_ testing.TB, s wiki.DerivedStore) string { return history.Dump(s.(*history.Index)) },
	})
}
