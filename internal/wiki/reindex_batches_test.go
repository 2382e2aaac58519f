package wiki_test

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// TestWiki_Reindex_Batches builds the index of 1,600 notes, which it
// indexes in batches, two at once, and checks that every note is found,
// and that the stem languages that only the batches indexed at once hold
// (German in one, French in the other) are kept, also once the index is
// opened again.
func TestWiki_Reindex_Batches(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{}
	for i := range 1600 {
		body := fmt.Sprintf("---\nlang: en\n---\nnote number%d about things\n", i)
		switch {
		case i == 700:
			body = "---\nlang: de\n---\nDie Häuser stehen am Fluss.\n"
		case i == 1200:
			body = "---\nlang: fr\n---\nLes chevaux courent dans le pré.\n"
		}
		files[fmt.Sprintf("n%04d.md", i)] = body
	}
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "many", files)

	check := func(t *testing.T, w *wiki.Wiki) {
		t.Helper()
		res, err := w.Search(ctx, wiki.SearchParams{Query: "things", Limit: 1})
		if err != nil || res.Total != 1598 {
			t.Fatalf("things: %v %v, want 1598 notes", res, err)
		}
		for q, want := range map[string]string{"Haus": "n0700", "cheval": "n1200", "number1599": "n1599", "number0": "n0000"} {
			res, err := w.Search(ctx, wiki.SearchParams{Query: q})
			if err != nil {
				t.Fatal(err)
			}
			if got := hitPaths(res); len(got) != 1 || got[0] != want {
				t.Errorf("%s: %v, want %s", q, got, want)
			}
		}
	}
	w := openWikiDeps(t, dir, nil, io.Discard, nil)
	if err := w.Reindex(ctx, true, nil); err != nil {
		t.Fatal(err)
	}
	check(t, w)
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	t.Run("opened again", func(t *testing.T) {
		w := openWikiDeps(t, dir, nil, io.Discard, nil)
		if st := w.IndexState(); st.Building {
			t.Fatalf("the index is built again: %+v", st)
		}
		check(t, w)
	})
}
