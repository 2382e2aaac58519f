package index

import (
	"cmp"
	"slices"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/wikid/wikid/internal/index/analysis"
	"github.com/wikid/wikid/internal/wiki"
)

// Bleve answers a phrase by checking the positions of its words in every
// note that holds them all; for two words that a third of the notes hold,
// that is most of the time of a search. So the index also keeps, for each
// note, the pairs of adjacent body words that are both common, as
// Lucene's common grams do, and looks such a phrase up by its pairs. The
// common words are chosen once, from the first batch applied to an empty
// index, and kept in it until Reset.
const (
	// commonSample is how many notes the first batch needs for the
	// common words to be chosen from it; a smaller wiki has none, and its
	// phrases are cheap anyway.
	commonSample = 200
	// commonShare is the share of the sample's notes a common word is in.
	commonShare = 0.20
	// maxCommon bounds the common words, and so the pairs (their squares).
	maxCommon = 128
)

// commonWords is the set of common words of an index; empty when none
// were chosen.
type commonWords map[string]bool

// commonOf holds the common words of an index, read by searches while a
// first batch sets them.
type commonOf struct{ p atomic.Pointer[commonWords] }

func (c *commonOf) get() commonWords {
	if w := c.p.Load(); w != nil {
		return *w
	}
	return nil
}

func (c *commonOf) set(w commonWords) { c.p.Store(&w) }

// chooseCommon returns the words that at least commonShare of docs hold
// in their bodies, at most maxCommon of them, the most frequent first; nil
// when there are fewer than commonSample docs.
func (c *compiler) chooseCommon(docs []wiki.Document) commonWords {
	if len(docs) < commonSample {
		return nil
	}
	df := map[string]int{}
	for i := range docs {
		seen := map[string]bool{}
		for _, t := range c.tokens(analyzerText, docs[i].Body) {
			if r, _ := utf8.DecodeRuneInString(t); analysis.IsCJK(r) {
				// A CJK phrase has gaps between its bigrams (see
				// phraseTerms), so no pair of one is ever looked up.
				continue
			}
			if !seen[t] {
				seen[t] = true
				df[t]++
			}
		}
	}
	least := max(2, int(commonShare*float64(len(docs))))
	var words []string
	for w, n := range df {
		if n >= least {
			words = append(words, w)
		}
	}
	slices.SortFunc(words, func(a, b string) int {
		if c := cmp.Compare(df[b], df[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	out := commonWords{}
	for _, w := range words[:min(len(words), maxCommon)] {
		out[w] = true
	}
	return out
}

// encode and decodeCommon keep the common words in the index.
func (w commonWords) encode() []byte {
	words := make([]string, 0, len(w))
	for k := range w {
		words = append(words, k)
	}
	slices.Sort(words)
	return []byte(strings.Join(words, "\n"))
}

func decodeCommon(b []byte) commonWords {
	w := commonWords{}
	for _, k := range strings.Split(string(b), "\n") {
		if k != "" {
			w[k] = true
		}
	}
	return w
}

// pairs returns the pairs of adjacent tokens that are both common, each
// as "first second".
func (w commonWords) pairs(tokens []string) []string {
	if len(w) == 0 {
		return nil
	}
	var out []string
	for i := 1; i < len(tokens); i++ {
		if w[tokens[i-1]] && w[tokens[i]] {
			out = append(out, tokens[i-1]+" "+tokens[i])
		}
	}
	return out
}

// bodyPhrase matches the notes whose bodies hold the tokens as a phrase.
// A phrase of two common words is its pair; a longer one with common
// pairs is the phrase among the notes that hold them all.
func (c *compiler) bodyPhrase(tokens []string) query.Query {
	phrase := query.NewPhraseQuery(tokens, fieldBody)
	pairs := c.common.pairs(tokens)
	if len(pairs) == 0 {
		return phrase
	}
	qs := make([]query.Query, 0, len(pairs)+1)
	for _, p := range pairs {
		tq := query.NewTermQuery(p)
		tq.SetField(fieldPairs)
		qs = append(qs, tq)
	}
	if len(tokens) == 2 {
		return qs[0]
	}
	return query.NewConjunctionQuery(append(qs, phrase))
}
