package analysis

import (
	"math"
	"math/bits"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	// The packages of the languages register their stop words.
	_ "github.com/blevesearch/bleve/v2/analysis/lang/ar"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/bg"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/ca"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/ckb"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/cs"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/da"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/de"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/el"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/en"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/es"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/eu"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/fa"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/fi"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/fr"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/ga"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/gl"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/hi"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/hr"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/hu"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/hy"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/id"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/it"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/nl"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/no"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/pt"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/ro"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/ru"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/sv"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/tr"
	"github.com/blevesearch/bleve/v2/registry"
)

// A note's language decides which stemmer finds the other forms of its
// words (see forms.go). The frontmatter names it (lang or language: a code
// such as "de" or "pt-BR", or an English name such as "German"); otherwise
// it is told from the stop words the note holds, against bleve's lists.
// Detection costs a few microseconds a note: it reads at most detectWords
// words, and looks each up once in one table of every list.

// language is one language a note can be told to be in.
type language struct {
	code string // ISO 639 code, as bleve names it
	name string // English name, lowercase
	// more are stop words of the language that bleve's list lacks, or
	// all of them for a language bleve has none for.
	more string
}

// languages are the languages a note can be told to be in: those bleve
// has stop words for, and Polish and Ukrainian, whose notes would be
// taken for Czech or Croatian, Russian or Bulgarian. Bleve's Polish
// package needs a module wikid does not pull in.
var languages = []language{
	{"ar", "arabic", ""}, {"bg", "bulgarian", ""}, {"ca", "catalan", ""}, {"ckb", "sorani", ""},
	{"cs", "czech", ""}, {"da", "danish", danishMore}, {"de", "german", ""}, {"el", "greek", ""},
	{"en", "english", ""}, {"es", "spanish", ""}, {"eu", "basque", ""}, {"fa", "persian", ""},
	{"fi", "finnish", ""}, {"fr", "french", ""}, {"ga", "irish", ""}, {"gl", "galician", ""},
	{"hi", "hindi", ""}, {"hr", "croatian", ""}, {"hu", "hungarian", ""}, {"hy", "armenian", ""},
	{"id", "indonesian", ""}, {"it", "italian", ""}, {"nl", "dutch", ""}, {"no", "norwegian", ""},
	{"pl", "polish", polishStop}, {"pt", "portuguese", ""}, {"ro", "romanian", ""},
	{"ru", "russian", ""}, {"sv", "swedish", ""}, {"tr", "turkish", ""}, {"uk", "ukrainian", ukrainianStop},
}

// danishMore are common Danish words that bleve's Danish list lacks and
// its Norwegian list has: without them, Danish notes were taken for
// Norwegian.
const danishMore = `kan ved så hvordan kun samme hver før både ingen fordi hvilken hvilke
	hvorfor begge bare siden hvem også`

// polishStop and ukrainianStop are the commonest words of the languages,
// the function words they share with their neighbours among them.
const (
	polishStop = `a ale ani bez by co do i jak je my na nad nic o od on ona oni po pod s
		ta tak ten to tu ty u w we z za ze ja się nie że jest oraz lub dla który
		która które aby albo są być może można tylko także też przez przy czy jego
		jej ich tym tego tej tych gdy jeśli już jeszcze bardzo więc jako gdzie
		kiedy lecz`
	ukrainianStop = `а без в ви вам вас все до за на над нас не ним них об один перед по
		при про так там тем то того через я у і й та що це як або але ваш ваша
		ваші якщо який яка яке які його її їх він вона вони ми ще вже також між
		коли де тому може можна було буде є ні чи цей ця ці той саме лише тільки
		від із після під щоб для`
)

// unlisted are languages without stop words here that a frontmatter may
// name, by code and name. Their notes have no language: detection would
// only take them for a neighbour.
var unlisted = map[string]bool{
	"be": true, "bn": true, "bs": true, "et": true, "he": true, "is": true, "ja": true,
	"km": true, "ko": true, "lt": true, "lv": true, "mk": true, "sk": true, "sl": true,
	"sr": true, "th": true, "vi": true, "zh": true,
	"slovak": true, "japanese": true, "chinese": true, "korean": true, "vietnamese": true,
	"hebrew": true, "thai": true,
}

// Thresholds of detection.
const (
	// detectWords is how many words of a note detection reads at most.
	detectWords = 500
	// minHits is how many stop words of its language a note needs.
	minHits = 2
	// minShare is the share of a note's words that must be stop words of
	// its language: prose has 20 to 50% (Finnish, whose list holds few
	// words, 5 to 10%); code and lists of names have few.
	minShare = 0.04
	// minMargin is how many more of the stop words that only one of two
	// languages has a note's language needs than the other: Danish and
	// Norwegian, Portuguese and Galician share most of theirs.
	minMargin = 2
)

// Declared returns the code of the language a frontmatter value
// names, and whether it names one: "" for a language of unlisted.
func Declared(v string) (string, bool) {
	v = strings.ToLower(strings.TrimSpace(v))
	if i := strings.IndexAny(v, "-_"); i > 0 {
		v = v[:i] // pt-BR, de_AT
	}
	switch v {
	case "nb", "nn", "bokmål", "nynorsk":
		return "no", true
	}
	for _, l := range languages {
		if v == l.code || v == l.name {
			return l.code, true
		}
	}
	if unlisted[v] {
		return "", true
	}
	return "", false
}

// Detect returns the code of the language the texts are written
// in, or "" when they are mostly in a script without stop words (Chinese,
// Japanese, Thai, Hebrew...), hold too few stop words, or hold those of
// two languages alike.
func Detect(texts ...string) string {
	d := detector{stop: StopWords()}
	for _, s := range texts {
		if !d.scan(s) {
			break
		}
	}
	return d.decide()
}

// detector counts the words of a text, and its stop words by the set of
// languages they are stop words of.
type detector struct {
	stop    map[string]uint32
	word    []byte // the word being read, folded
	words   int
	letters int            // letters read
	foreign int            // letters of scripts without stop words
	sets    map[uint32]int // stop words by their languages (bits of languages)
}

// scan reads s, and reports false once it has read detectWords words.
func (d *detector) scan(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case 'a' <= c && c <= 'z':
				d.word = append(d.word, c)
			case 'A' <= c && c <= 'Z':
				d.word = append(d.word, c+'a'-'A')
			default:
				if !d.end() {
					return false
				}
				continue
			}
			d.letters++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if !unicode.IsLetter(r) && !unicode.IsMark(r) {
			if !d.end() {
				return false
			}
			continue
		}
		d.word = utf8.AppendRune(d.word, FoldRune(r))
		d.letters++
		if !stopScript(r) {
			d.foreign++
		}
	}
	return d.end()
}

// end counts the word read, if any, and reports false once detectWords
// words are read.
func (d *detector) end() bool {
	if len(d.word) == 0 {
		return true
	}
	d.words++
	if set := d.stop[string(d.word)]; set != 0 {
		if d.sets == nil {
			d.sets = map[uint32]int{}
		}
		d.sets[set]++
	}
	d.word = d.word[:0]
	return d.words < detectWords
}

// decide returns the language the counts point to, or "": the one with
// enough stop words that beats every other on the stop words only one of
// the two has.
func (d *detector) decide() string {
	if d.letters == 0 || 2*d.foreign > d.letters {
		return ""
	}
	var hits [32]int
	for set, n := range d.sets {
		for ; set != 0; set &= set - 1 {
			hits[bits.TrailingZeros32(set)] += n
		}
	}
	least := max(minHits, int(math.Ceil(minShare*float64(d.words))))
	var tried uint32
	for {
		best := -1
		for i := range languages {
			if tried&(1<<i) == 0 && (best < 0 || hits[i] > hits[best]) {
				best = i
			}
		}
		if best < 0 || hits[best] < least {
			return ""
		}
		if d.beatsAll(best, hits[:len(languages)]) {
			return languages[best].code
		}
		tried |= 1 << best
	}
}

// beatsAll reports whether language a has minMargin times as many stop
// words that another language lacks as that language has that a lacks,
// for every other language with stop words in the text.
func (d *detector) beatsAll(a int, hits []int) bool {
	for b := range hits {
		if b == a || hits[b] == 0 {
			continue
		}
		var onlyA, onlyB int
		for set, n := range d.sets {
			inA, inB := set&(1<<a) != 0, set&(1<<b) != 0
			switch {
			case inA && !inB:
				onlyA += n
			case inB && !inA:
				onlyB += n
			}
		}
		if onlyA == 0 || onlyA < minMargin*onlyB {
			return false
		}
	}
	return true
}

// stopScript reports whether r is a letter of a script bleve has stop
// words for (Latin, Greek, Cyrillic, Armenian, Arabic, Devanagari), or a
// combining mark.
func stopScript(r rune) bool {
	switch {
	case r < 0x0530: // Latin, combining marks, Greek, Cyrillic
		return true
	case r < 0x0590: // Armenian
		return true
	case 0x0600 <= r && r < 0x0780: // Arabic
		return true
	case 0x0900 <= r && r < 0x0980: // Devanagari
		return true
	case 0x1D00 <= r && r < 0x2000: // phonetic, Latin and Greek extended
		return true
	case 0xFB50 <= r && r < 0xFE00, 0xFE70 <= r && r < 0xFF00: // Arabic forms
		return true
	}
	return false
}

// FoldRune lowercases r, and folds what bleve's stop word lists write
// folded: Greek without accents and with σ for the final ς, Persian with
// the Arabic yeh and kaf.
func FoldRune(r rune) rune {
	r = unicode.ToLower(r)
	switch r {
	case 'ά':
		return 'α'
	case 'έ':
		return 'ε'
	case 'ή':
		return 'η'
	case 'ί', 'ϊ', 'ΐ':
		return 'ι'
	case 'ό':
		return 'ο'
	case 'ύ', 'ϋ', 'ΰ':
		return 'υ'
	case 'ώ':
		return 'ω'
	case 'ς':
		return 'σ'
	case 'ی':
		return 'ي'
	case 'ک':
		return 'ك'
	}
	return r
}

// StopWords returns the stop words of every language, folded, each with
// the set of languages (bits by index in languages) it is a stop word of.
var StopWords = sync.OnceValue(func() map[string]uint32 {
	cache := registry.NewCache()
	out := map[string]uint32{}
	add := func(w string, i int) {
		var b []byte
		for _, r := range w {
			b = utf8.AppendRune(b, FoldRune(r))
		}
		out[string(b)] |= 1 << i
	}
	for i, l := range languages {
		for _, w := range strings.Fields(l.more) {
			add(w, i)
		}
		if l.more != "" && l.code != "da" {
			continue // no list in bleve
		}
		words, err := cache.TokenMapNamed("stop_" + l.code)
		if err != nil {
			panic(err) // a language package is not linked in
		}
		for w := range words {
			add(w, i)
		}
	}
	return out
})

// LanguageIndex returns the index in languages of the language with a
// code, -1 for none: the bit of StopWords' masks that stands for it.
func LanguageIndex(code string) int {
	for i, l := range languages {
		if l.code == code {
			return i
		}
	}
	return -1
}
