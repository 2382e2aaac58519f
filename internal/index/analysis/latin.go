package analysis

import (
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/registry"
)

// LatinEnglishName is the token filter that stems words of Latin letters
// as English, and leaves other words alone. The stem fields of notes in a
// language of another script (Arabic, Russian...), and of notes without a
// stemmer (no language told, Chinese, Catalan...), go through it: the
// Latin words of the first are most often English ("plugins", "Markdown"),
// and so are the notes of a wiki too short to tell.
const LatinEnglishName = "wikid_latin_en"

func init() {
	err := registry.RegisterTokenFilter(LatinEnglishName, func(_ map[string]any, cache *registry.Cache) (analysis.TokenFilter, error) {
		var f LatinEnglish
		for _, name := range []string{en.PossessiveName, en.SnowballStemmerName} {
			tf, err := cache.TokenFilterNamed(name)
			if err != nil {
				return nil, err
			}
			f = append(f, tf)
		}
		return f, nil
	})
	if err != nil {
		panic(err)
	}
}

// LatinEnglish is the filter named LatinEnglishName: English's filters,
// applied to the Latin words only.
type LatinEnglish []analysis.TokenFilter

// Filter implements analysis.TokenFilter.
func (f LatinEnglish) Filter(in analysis.TokenStream) analysis.TokenStream {
	for i, t := range in {
		if !latinWord(t.Term) {
			continue
		}
		one := analysis.TokenStream{t}
		for _, tf := range f {
			one = tf.Filter(one)
		}
		if len(one) == 1 {
			in[i] = one[0]
		}
	}
	return in
}

// latinWord reports whether every letter of a word is Latin.
func latinWord(b []byte) bool {
	letters := false
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			c := b[i] | 0x20
			letters = letters || 'a' <= c && c <= 'z'
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		i += size
		if unicode.IsLetter(r) {
			if !unicode.Is(unicode.Latin, r) {
				return false
			}
			letters = true
		}
	}
	return letters
}
