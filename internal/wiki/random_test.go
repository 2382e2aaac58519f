package wiki_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

func TestWiki_Random(t *testing.T) {
	ctx := context.Background()
	long := strings.Repeat("é", wiki.MaxExcerptChars+20)
	w := openWiki(t, seeded(t, map[string]string{
		"one.md":       "---\ntitle: One\ntags: [project/alpha]\n---\n\n  First body.\n\n",
		"two.md":       "---\ntags: [other]\n---\n" + long,
		"three.md":     "# Three\n\n#misc text\n",
		"notes/x.json": "{}",
	}), nil)

	t.Run("tag filter", func(t *testing.T) {
		for range 20 {
			res, err := w.Random(ctx, wiki.RandomRequest{Tags: []string{"nope", "Project"}})
			if err != nil {
				t.Fatal(err)
			}
			want := wiki.NoteSummary{Path: "one", Title: "One", Tags: []string{"project/alpha"}}
			if res.Path != want.Path || res.Title != want.Title || !slices.Equal(res.Tags, want.Tags) ||
				res.Excerpt != "First body." || res.Truncated {
				t.Fatalf("got %+v", res)
			}
		}
	})
	t.Run("excerpt cut", func(t *testing.T) {
		res, err := w.Random(ctx, wiki.RandomRequest{Tags: []string{"other"}})
		if err != nil {
			t.Fatal(err)
		}
		if want := long[:2*wiki.MaxExcerptChars] + "... [truncated]"; res.Excerpt != want || !res.Truncated {
			t.Errorf("excerpt %q (truncated %v)", res.Excerpt, res.Truncated)
		}
	})
	t.Run("every note comes up", func(t *testing.T) {
		seen := map[string]int{}
		for range 300 {
			res, err := w.Random(ctx, wiki.RandomRequest{})
			if err != nil {
				t.Fatal(err)
			}
			seen[res.Path]++
		}
		// Each of the three notes has probability 1/3 per draw; missing one
		// in 300 draws has probability below 1e-50.
		if len(seen) != 3 || seen["one"] == 0 || seen["two"] == 0 || seen["three"] == 0 {
			t.Errorf("picks %v", seen)
		}
	})
	t.Run("no note with the tags", func(t *testing.T) {
		_, err := w.Random(ctx, wiki.RandomRequest{Tags: []string{"absent"}})
		wantCode(t, err, wiki.CodeNotFound)
	})
	t.Run("empty wiki", func(t *testing.T) {
		w := openWiki(t, gittest.Init(t), nil)
		_, err := w.Random(ctx, wiki.RandomRequest{})
		wantCode(t, err, wiki.CodeNotFound)
	})
}
