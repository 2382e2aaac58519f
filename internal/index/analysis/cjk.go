package analysis

import (
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"
)

// Chinese, Japanese and Korean write words without spaces between them, so
// the Unicode word segmentation of the text analyzer cannot find the words:
// it makes one token of a run of katakana ("プラグインマネージャー") or of
// hangul ("노트북에서"), and one of each kanji or hiragana character. A
// word inside a longer run was then not found. The text analyzer therefore
// indexes every run of CJK characters as overlapping character bigrams,
// as Lucene's CJK analyzer does, and each character on its own between them:
// the run "ノート" becomes the tokens ノ, ノー, ー, ート, ト at consecutive
// positions. A query is analyzed the same way and looks up the bigrams as
// a phrase ("ノー", any, "ート"), which matches wherever the query's
// characters stand next to each other in a run, at its start, in its middle
// or at its end: the notes found are those that `git grep -F` finds, within
// a run of CJK text. A query of one CJK character is its unigram: the notes
// holding that character anywhere. Punctuation, spaces and other scripts
// end a run, in the text and in the query alike. Characters are matched as
// written: no width folding (half-width katakana is not full-width).

// CJKFilterName is the name of the CJK token filter in bleve's registry.
const CJKFilterName = "wikid_cjk"

// Token types of the CJK filter's output. The unigrams of a run of two or
// more characters are covered by the bigrams beside them, and a query
// leaves them out of its phrase (see phraseTerms); a run of one character
// is its own term.
const (
	CJKCovered = analysis.Single      // a character of a longer run, the type of its token
	cjkBigram  = analysis.Double      // two adjacent characters of a run
	cjkAlone   = analysis.Ideographic // a run of one character
)

func init() {
	err := registry.RegisterTokenFilter(CJKFilterName, func(map[string]any, *registry.Cache) (analysis.TokenFilter, error) {
		return cjkFilter{}, nil
	})
	if err != nil {
		panic(err)
	}
}

// cjkFilter is the token filter described above. It runs right after the
// tokenizer, while terms are the text's own bytes: the offsets of the
// pieces it cuts from a token are then exact. Tokens without CJK pass
// unchanged; a token that mixes CJK with other letters ("abc노트", which
// the segmentation keeps together) is cut into its CJK and other pieces.
// Adjacent CJK pieces, such as the kanji and katakana tokens of
// "無限キャンバス", join into one run. Positions are renumbered from 1.
type cjkFilter struct{}

// Filter implements analysis.TokenFilter.
func (cjkFilter) Filter(in analysis.TokenStream) analysis.TokenStream {
	i := 0
	for i < len(in) && !HasCJK(in[i].Term) {
		i++
	}
	if i == len(in) {
		return in
	}
	out := make(analysis.TokenStream, 0, len(in)+16)
	pos := 0
	emit := func(t *analysis.Token) {
		pos++
		t.Position = pos
		out = append(out, t)
	}
	for _, t := range in[:i] {
		emit(t)
	}
	var run cjkRun
	for _, t := range in[i:] {
		if !HasCJK(t.Term) {
			run.flush(emit)
			emit(t)
			continue
		}
		for off := 0; off < len(t.Term); {
			r, size := utf8.DecodeRune(t.Term[off:])
			start := t.Start + off
			if IsCJK(r) {
				if run.end != start {
					run.flush(emit)
				}
				run.add(t.Term[off:off+size], start)
				off += size
				continue
			}
			// A piece of other characters, up to the next CJK one.
			end := off + size
			for end < len(t.Term) {
				r, size := utf8.DecodeRune(t.Term[end:])
				if IsCJK(r) {
					break
				}
				end += size
			}
			run.flush(emit)
			emit(&analysis.Token{Term: t.Term[off:end], Start: start, End: t.Start + end,
				Type: analysis.AlphaNumeric, KeyWord: t.KeyWord})
			off = end
		}
	}
	run.flush(emit)
	return out
}

// cjkRun collects the characters of a run of CJK text.
type cjkRun struct {
	chars  [][]byte
	starts []int
	end    int // the offset after the last character; 0 when empty
}

func (r *cjkRun) add(char []byte, start int) {
	r.chars = append(r.chars, char)
	r.starts = append(r.starts, start)
	r.end = start + len(char)
}

// flush emits the run's tokens: each character, with the bigram of it and
// the next one after it, and empties the run.
func (r *cjkRun) flush(emit func(*analysis.Token)) {
	n := len(r.chars)
	for k, c := range r.chars {
		typ := CJKCovered
		if n == 1 {
			typ = cjkAlone
		}
		emit(&analysis.Token{Term: c, Start: r.starts[k], End: r.starts[k] + len(c), Type: typ})
		if k+1 < n {
			next := r.chars[k+1]
			term := make([]byte, 0, len(c)+len(next))
			emit(&analysis.Token{Term: append(append(term, c...), next...), Start: r.starts[k],
				End: r.starts[k+1] + len(next), Type: cjkBigram})
		}
	}
	r.chars, r.starts, r.end = r.chars[:0], r.starts[:0], 0
}

// HasCJK reports whether b holds a CJK character. Every such character
// is at least three bytes long in UTF-8, starting with 0xE1 or above, so
// most text is ruled out without decoding.
func HasCJK(b []byte) bool {
	for i := 0; i < len(b); {
		if b[i] < 0xE1 {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if IsCJK(r) {
			return true
		}
		i += size
	}
	return false
}

// IsCJK reports whether r is a character of Chinese, Japanese or Korean
// text that the filter indexes as bigrams: Han (kanji and hanzi, with the
// iteration marks), hiragana, katakana (full and half width), hangul, and
// the marks that go inside kana words: the prolonged sound marks and the
// voiced sound marks.
func IsCJK(r rune) bool {
	switch {
	case r < 0x1100:
		return false
	case r == 0x30FC, r == 0xFF70, 0x3099 <= r && r <= 0x309C, r == 0xFF9E, r == 0xFF9F:
		return true
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}
