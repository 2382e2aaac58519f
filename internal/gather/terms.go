package gather

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
)

// maxTerms is how many words of a question are searched for at most; the
// longest are kept, as they say most. A word longer than maxWordRunes is
// no word a note would hold, and is left out: so the query stays well
// under the query language's length limit.
const (
	maxTerms     = 12
	maxWordRunes = 32
)

// Term is a word of a question that is searched for.
type Term struct {
	// Word is the word as written, lowercased.
	Word string
	// Stem is the word's English stem when it is a Latin word of four
	// letters or more: a note's word matches when it starts with the stem
	// ("decid" matches decide, decided and deciding). Empty otherwise: the
	// word matches only itself, or, outside Latin scripts, wherever it
	// occurs in a word.
	Stem string
}

// Terms returns the words of a question worth searching for: words of
// letters and digits, lowercased, without English stop words and question
// words, single letters and overlong words, each once, at most maxTerms of
// them.
func Terms(question string) []Term {
	var out []Term
	seen := map[string]bool{}
	for _, w := range words(strings.ToLower(question)) {
		if n := utf8.RuneCountInString(w); stopWords[w] || seen[w] || n > maxWordRunes || n < 2 && latin(w) {
			continue
		}
		seen[w] = true
		t := Term{Word: w}
		if latin(w) && len(w) >= 4 {
			env := snowballstem.NewEnv(w)
			english.Stem(env)
			if s := env.Current(); len(s) >= 4 {
				t.Stem = s
			}
		}
		out = append(out, t)
	}
	if len(out) > maxTerms {
		// Keep the longest words, in the question's order.
		order := make([]int, len(out))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return len(out[b].Word) - len(out[a].Word) })
		order = order[:maxTerms]
		slices.Sort(order)
		kept := make([]Term, len(order))
		for i, k := range order {
			kept[i] = out[k]
		}
		out = kept
	}
	return out
}

// Question returns the search query that asks for notes with most of the
// terms: their words side by side, which a search reads as a question.
func Question(terms []Term) string {
	parts := make([]string, len(terms))
	for i, t := range terms {
		parts[i] = t.Word
	}
	return strings.Join(parts, " ")
}

// Query returns the search query that finds notes with any of the terms,
// in wikid's query language: a stem as a prefix, any other word as a
// quoted word.
func Query(terms []Term) string {
	parts := make([]string, 0, len(terms))
	for _, t := range terms {
		if t.Stem != "" {
			parts = append(parts, t.Stem+"*")
		} else {
			parts = append(parts, strconv.Quote(t.Word))
		}
	}
	return strings.Join(parts, " OR ")
}

// matches reports whether a lowercased word of a note matches the term.
func (t Term) matches(word string) bool {
	switch {
	case t.Stem != "":
		return strings.HasPrefix(word, t.Stem)
	case latin(t.Word):
		return word == t.Word
	default:
		return strings.Contains(word, t.Word)
	}
}

// words splits s into runs of letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// latin reports whether a word is written in Latin letters and digits only.
func latin(w string) bool {
	for _, r := range w {
		if !unicode.Is(unicode.Latin, r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// stopWords are English words that say nothing about what a question is
// about: articles, pronouns, auxiliaries, prepositions, question words and
// the verbs of asking ("what does X mean").
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again against all am an and any are as at be because
		been before being below between both but by can could did do does doing down during each few for from
		further had has have having he her here hers herself him himself his how i if in into is it its itself
		just me more most my myself no nor not now of off on once only or other our ours ourselves out over own
		same she should so some such than that the their theirs them themselves then there these they this
		those through to too under until up very was we were what when where which while who whom why will with
		would you your yours yourself yourselves also any anything did does done get got know let like make
		may might much must need please shall tell thing things us want way whats whose many note notes mean means meant define explain describe`) {
		m[w] = true
	}
	return m
}()
