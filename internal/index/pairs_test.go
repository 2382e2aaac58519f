package index

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/wiki"
)

// allPaths walks every page of a search and returns the paths, sorted.
func allPaths(tb testing.TB, x *Index, query string) []string {
	tb.Helper()
	req := wiki.SearchRequest{Query: parse(tb, query), Limit: 100}
	var out []string
	for {
		res := find(tb, x, req)
		out = append(out, paths(res)...)
		if res.NextCursor == "" {
			break
		}
		req.Cursor = res.NextCursor
	}
	slices.Sort(out)
	return out
}

// holdsPhrase reports whether the words of text hold the phrase's words
// one after the other.
func holdsPhrase(c *compiler, text string, phrase []string) bool {
	tokens := c.tokens(analyzerText, text)
	for i := 0; i+len(phrase) <= len(tokens); i++ {
		if slices.Equal(tokens[i:i+len(phrase)], phrase) {
			return true
		}
	}
	return false
}

// TestIndex_phrasePairs checks phrases of common words, which are looked
// up by their pairs, against the notes that hold them: in a wiki of a few
// words, every phrase of two and many of three, in the body, the title or
// an alias, before and after the index is reopened.
func TestIndex_phrasePairs(t *testing.T) {
	x, _ := openTest(t)
	r := rand.New(rand.NewPCG(9, 10))
	vocab := []string{"red", "green", "blue", "cat", "dog", "sun"}
	words := func(n int) string {
		var w []string
		for range n {
			w = append(w, vocab[r.IntN(len(vocab))])
		}
		return strings.Join(w, " ")
	}
	var docs []wiki.Document
	for i := range 300 {
		docs = append(docs, wiki.Document{
			Path:    fmt.Sprintf("n/%03d", i),
			Title:   words(1 + r.IntN(3)),
			Aliases: []string{words(2)},
			Body:    words(2+r.IntN(6)) + ".\n" + words(1+r.IntN(6)) + ", " + words(2) + "\n",
		})
	}
	apply(t, x, "c1", docs, nil)
	common := x.common.get()
	for _, w := range vocab {
		if !common[w] {
			t.Fatalf("%q is not a common word: %v", w, common)
		}
	}

	c := &compiler{bi: x.bi, im: x.im}
	var phrases [][]string
	for _, a := range vocab {
		for _, b := range vocab {
			phrases = append(phrases, []string{a, b})
			phrases = append(phrases, []string{a, b, vocab[r.IntN(len(vocab))]})
		}
	}
	check := func() {
		t.Helper()
		for _, p := range phrases {
			var want []string
			for _, d := range docs {
				if holdsPhrase(c, d.Title, p) || holdsPhrase(c, d.Aliases[0], p) || holdsPhrase(c, d.Body, p) {
					want = append(want, d.Path)
				}
			}
			// Punctuation between the words does not change a phrase.
			q := `"` + strings.Join(p, ", ") + `"`
			if got := allPaths(t, x, q); !slices.Equal(got, want) {
				t.Fatalf("%s: got %d notes %q\nwant %d %q", q, len(got), got, len(want), want)
			}
		}
	}
	check()

	dir := x.dir
	if err := x.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if x, err := Open(context.Background(), dir, Options{}); err != nil {
		t.Fatal(err)
	} else {
		t.Cleanup(func() { x.Close(context.Background()) })
		if got := x.common.get(); len(got) != len(common) {
			t.Fatalf("reopened index has %d common words, want %d", len(got), len(common))
		}
	}
}

// TestIndex_commonChosenOnce checks that the common words come from the
// first batch into an empty index only, that a small first batch chooses
// none, and that Reset forgets them.
func TestIndex_commonChosenOnce(t *testing.T) {
	x, _ := openTest(t)
	small := []wiki.Document{{Path: "a", Body: "just a few words"}}
	apply(t, x, "c1", small, nil)
	var many []wiki.Document
	for i := range commonSample {
		many = append(many, wiki.Document{Path: fmt.Sprintf("m/%d", i), Body: "alpha beta"})
	}
	apply(t, x, "c2", many, nil)
	if got := x.common.get(); got != nil {
		t.Fatalf("common words chosen after a small first batch: %v", got)
	}
	if err := x.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	apply(t, x, "c3", many, nil)
	if got := x.common.get(); !got["alpha"] || !got["beta"] || len(got) != 2 {
		t.Fatalf("common words = %v, want alpha and beta", got)
	}
}
