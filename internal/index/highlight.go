package index

import (
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/search"
)

// highlighter finds in a note's body the words that a query's free-text
// terms match, for the snippets of a page of hits. Locating them in the
// few bodies of the page is cheaper than asking bleve for term locations:
// bleve would run the query again, and a rare phrase of common words makes
// it walk every note that holds them.
type highlighter struct {
	words    map[string]bool // whole words
	prefixes []string        // words that start with one of these
	phrases  [][]string      // runs of adjacent words
	needles  []string        // case-folded words a line must hold to match
	// forms maps a stem language to the stems of words, each to its word
	// (see forms).
	forms map[string]map[string]string
}

// newHighlighter returns a highlighter without words. The compiler adds
// the free-text terms that are not negated; terms of other fields never
// match in the body.
func newHighlighter() *highlighter {
	return &highlighter{words: map[string]bool{}}
}

// add adds a free-text term, whose phraseTerms are tokens, as text
// compiles it.
func (h *highlighter) add(tokens []string, prefix bool) {
	switch {
	case len(tokens) == 0:
	case prefix:
		// As compiled by prefixPhrase: the words anywhere, the last as a
		// prefix.
		for _, t := range tokens[:len(tokens)-1] {
			h.words[t] = true
		}
		h.prefixes = append(h.prefixes, tokens[len(tokens)-1])
	case len(tokens) == 1:
		h.words[tokens[0]] = true
	default:
		h.phrases = append(h.phrases, tokens)
	}
}

// addForm adds the stem of a word in a language: the words of a note in
// that language with that stem match.
func (h *highlighter) addForm(lang, stem, word string) {
	if h.forms == nil {
		h.forms = map[string]map[string]string{}
	}
	if h.forms[lang] == nil {
		h.forms[lang] = map[string]string{}
	}
	h.forms[lang][stem] = word
}

// empty reports whether the highlighter can match nothing.
func (h *highlighter) empty() bool {
	return len(h.words) == 0 && len(h.prefixes) == 0 && len(h.phrases) == 0
}

// locate returns the locations of the matches in body, by term, in the
// form bleve reports them; a form of a word counts as the word. lang is
// the note's language. Only the runs of lines that hold one of the words
// as a substring are analyzed: analyzing a whole body costs more than the
// rest of a search.
func (c *compiler) locate(h *highlighter, body, lang string) search.TermLocationMap {
	a := c.im.AnalyzerNamed(analyzerText)
	if a == nil || h.empty() {
		return nil
	}
	needles := h.needles
	var fm *formMatcher
	lang = stemLanguage(lang)
	if forms := h.forms[lang]; forms != nil {
		if sa := c.im.AnalyzerNamed(analyzerStem(lang)); sa != nil {
			fm = newFormMatcher(sa, forms)
			needles = append(slices.Clip(needles), fm.needles...)
		}
	}
	locs := search.TermLocationMap{}
	runStart, runEnd := -1, -1
	for start := 0; start < len(body); {
		end := strings.IndexByte(body[start:], '\n')
		if end < 0 {
			end = len(body)
		} else {
			end += start
		}
		line := foldCase(body[start:end])
		if slices.ContainsFunc(needles, func(n string) bool { return strings.Contains(line, n) }) {
			if runStart < 0 {
				runStart = start
			}
			runEnd = end
		} else if runStart >= 0 {
			h.locateRun(a, fm, body, runStart, runEnd, locs)
			runStart = -1
		}
		start = end + 1
	}
	if runStart >= 0 {
		h.locateRun(a, fm, body, runStart, runEnd, locs)
	}
	return locs
}

// foldedWords returns the case-folded words that a line must hold, as a
// substring, to hold a match, but for the forms of words: those depend on
// the note's language (see formMatcher).
func (h *highlighter) foldedWords() []string {
	var out []string
	for w := range h.words {
		out = append(out, foldCase(w))
	}
	for _, p := range h.prefixes {
		out = append(out, foldCase(p))
	}
	for _, p := range h.phrases {
		for _, w := range p {
			if w != "" {
				out = append(out, foldCase(w))
			}
		}
	}
	return out
}

// foldCase lowercases s, and the final sigma that the lowercase filter
// makes too: a substring check then never misses a word.
func foldCase(s string) string {
	return strings.ReplaceAll(strings.ToLower(s), "ς", "σ")
}

// locateRun adds to locs the matches in body[start:end], a run of lines,
// and those of fm, if not nil.
func (h *highlighter) locateRun(a analysis.Analyzer, fm *formMatcher, body string, start, end int, locs search.TermLocationMap) {
	stream := a.Analyze([]byte(body[start:end]))
	matched := make([]bool, len(stream))
	for i, t := range stream {
		term := string(t.Term)
		if h.words[term] {
			matched[i] = true
			continue
		}
		for _, p := range h.prefixes {
			if strings.HasPrefix(term, p) {
				matched[i] = true
				break
			}
		}
	}
	for _, p := range h.phrases {
		for i := 0; i+len(p) <= len(stream); i++ {
			if phraseAt(stream[i:i+len(p)], p) {
				for k, w := range p {
					if w != "" {
						matched[i+k] = true
					}
				}
			}
		}
	}
	for i, m := range matched {
		if !m {
			continue
		}
		t := stream[i]
		term := string(t.Term)
		locs[term] = append(locs[term], &search.Location{
			Pos:   uint64(t.Position),
			Start: uint64(start + t.Start),
			End:   uint64(start + t.End),
		})
	}
	if fm != nil {
		fm.locate(stream, matched, start, locs)
	}
}

// phraseAt reports whether the tokens are the words of phrase, at
// adjacent positions; "" in phrase stands for any word.
func phraseAt(tokens analysis.TokenStream, phrase []string) bool {
	for k, t := range tokens {
		if (phrase[k] != "" && string(t.Term) != phrase[k]) || t.Position != tokens[0].Position+k {
			return false
		}
	}
	return true
}
