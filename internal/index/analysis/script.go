package analysis

import (
	"unicode"
	"unicode/utf8"
)

// A note's script is the writing system most of its letters are in. A
// question in one script seldom wants notes in another: a help vault
// translated into Thai keeps the English names of its features, and its
// short Thai notes would otherwise rank with the English ones for an
// English question.

// scriptLetters is how many letters tell a text's script.
const scriptLetters = 2000

// scripts are the writing systems told apart, in the order tried; Han,
// Hiragana and Katakana count as one, for Japanese mixes them.
var scripts = []struct {
	name   string
	tables []*unicode.RangeTable
}{
	{"latin", []*unicode.RangeTable{unicode.Latin}},
	{"cyrillic", []*unicode.RangeTable{unicode.Cyrillic}},
	{"cjk", []*unicode.RangeTable{unicode.Han, unicode.Hiragana, unicode.Katakana}},
	{"hangul", []*unicode.RangeTable{unicode.Hangul}},
	{"arabic", []*unicode.RangeTable{unicode.Arabic}},
	{"greek", []*unicode.RangeTable{unicode.Greek}},
	{"hebrew", []*unicode.RangeTable{unicode.Hebrew}},
	{"devanagari", []*unicode.RangeTable{unicode.Devanagari}},
	{"bengali", []*unicode.RangeTable{unicode.Bengali}},
	{"thai", []*unicode.RangeTable{unicode.Thai}},
	{"khmer", []*unicode.RangeTable{unicode.Khmer}},
}

// DominantScript returns the script of most of the first scriptLetters
// letters of the texts, "" when they have none or it is none of scripts.
func DominantScript(texts ...string) string {
	counts := make([]int, len(scripts))
	letters := 0
	for _, s := range texts {
		for i := 0; i < len(s) && letters < scriptLetters; {
			c := s[i]
			if c < utf8.RuneSelf {
				i++
				if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
					counts[0]++
					letters++
				}
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			i += size
			if !unicode.IsLetter(r) {
				continue
			}
			letters++
			for k, sc := range scripts {
				if unicode.In(r, sc.tables...) {
					counts[k]++
					break
				}
			}
		}
	}
	best := -1
	for k, n := range counts {
		if n > 0 && (best < 0 || n > counts[best]) {
			best = k
		}
	}
	if best < 0 {
		return ""
	}
	return scripts[best].name
}
