package index

import (
	"bytes"
	"slices"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/search"
)

// formMatcher finds, among the words of a note's body, those whose stem
// in the note's language is the stem of a word of the query, for
// snippets.
type formMatcher struct {
	a       analysis.Analyzer // the stem analyzer of the note's language
	forms   map[string]string // stem → the query's word
	needles []string          // what a line or word holds to hold a form
}

func newFormMatcher(a analysis.Analyzer, forms map[string]string) *formMatcher {
	m := &formMatcher{a: a, forms: forms}
	for stem, word := range forms {
		m.needles = append(m.needles, formNeedle(foldCase(word), stem))
	}
	return m
}

// locate adds to locs the forms among the words of stream, the text
// analysis of the run of lines at offset start of the body, keyed by
// their query's word. Words already matched, and those without a needle,
// are skipped: stemming every word would cost more than the search.
func (m *formMatcher) locate(stream analysis.TokenStream, matched []bool, start int, locs search.TermLocationMap) {
	for i, t := range stream {
		if matched[i] || t.Type != analysis.AlphaNumeric && t.Type != analysis.Numeric ||
			!slices.ContainsFunc(m.needles, func(n string) bool { return bytes.Contains(t.Term, []byte(n)) }) {
			continue
		}
		stems := m.a.Analyze(t.Term)
		if len(stems) != 1 {
			continue
		}
		word, ok := m.forms[string(stems[0].Term)]
		if !ok {
			continue
		}
		locs[word] = append(locs[word], &search.Location{
			Pos:   uint64(t.Position),
			Start: uint64(start + t.Start),
			End:   uint64(start + t.End),
		})
	}
}

// formNeedle returns what a line that holds a form of word most likely
// holds, given the word's stem: the start they share, less its last
// letter when it has more than three ("cop" for "copies", whose stem
// "copi" is not in "copy"). A stemmer that changes letters inside a word
// (German "Häuser" to "haus") can still hide a form from it; that line is
// then not marked.
func formNeedle(word, stem string) string {
	n := 0
	for n < len(word) && n < len(stem) && word[n] == stem[n] {
		n++
	}
	for n > 0 && n < len(word) && !utf8.RuneStart(word[n]) {
		n-- // inside a letter both start with
	}
	p := word[:n]
	if utf8.RuneCountInString(p) > 3 {
		_, size := utf8.DecodeLastRuneInString(p)
		p = p[:len(p)-size]
	}
	return p
}
