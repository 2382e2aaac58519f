package index

import (
	"maps"
	"slices"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/lang/ar"
	"github.com/blevesearch/bleve/v2/analysis/lang/ckb"
	"github.com/blevesearch/bleve/v2/analysis/lang/da"
	"github.com/blevesearch/bleve/v2/analysis/lang/de"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/lang/es"
	"github.com/blevesearch/bleve/v2/analysis/lang/fa"
	"github.com/blevesearch/bleve/v2/analysis/lang/fi"
	"github.com/blevesearch/bleve/v2/analysis/lang/fr"
	"github.com/blevesearch/bleve/v2/analysis/lang/hi"
	"github.com/blevesearch/bleve/v2/analysis/lang/hr"
	"github.com/blevesearch/bleve/v2/analysis/lang/hu"
	"github.com/blevesearch/bleve/v2/analysis/lang/in"
	"github.com/blevesearch/bleve/v2/analysis/lang/it"
	"github.com/blevesearch/bleve/v2/analysis/lang/nl"
	"github.com/blevesearch/bleve/v2/analysis/lang/no"
	"github.com/blevesearch/bleve/v2/analysis/lang/pt"
	"github.com/blevesearch/bleve/v2/analysis/lang/ro"
	"github.com/blevesearch/bleve/v2/analysis/lang/ru"
	"github.com/blevesearch/bleve/v2/analysis/lang/sv"
	"github.com/blevesearch/bleve/v2/analysis/lang/tr"
	"github.com/blevesearch/bleve/v2/analysis/token/apostrophe"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/unicodenorm"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"

	wordanalysis "github.com/wikid/wikid/internal/index/analysis"
)

// langNone is the stem language of notes without a language, or in one
// without a stemmer (BCP 47's code for "undetermined"): their words
// lowercased, the Latin ones stemmed as English (see latinEnglish).
const langNone = "und"

// Field names of the stem fields: fieldStem(lang) holds aliases and body,
// fieldStemTitle(lang) the title.
func fieldStem(lang string) string      { return "stem_" + lang }
func fieldStemTitle(lang string) string { return "stem_title_" + lang }

// analyzerStem names the analyzer of a language's stem fields.
func analyzerStem(lang string) string { return "wikid_stem_" + lang }

// filterNFKC is the Unicode normalization of the Arabic analyzer. It is
// registered by name, as every filter a memo runs must be: a mapping read
// back from an index defines its custom filters in no given order.
const filterNFKC = "wikid_nfkc"

// stemFilters are the token filters of each stem language, after the
// tokenizer and dropCJK: those of bleve's analyzer for the language but
// its stop word filter (see forms), and latinEnglish for the languages of
// other scripts than Latin. Persian leaves out bleve's zero-width
// non-joiner filter, which would shift the offsets snippets mark; the text
// analyzer keeps that character inside words too.
var stemFilters = map[string][]string{
	"ar":     {lowercase.Name, filterNFKC, ar.NormalizeName, ar.StemmerName, wordanalysis.LatinEnglishName},
	"ckb":    {ckb.NormalizeName, lowercase.Name, ckb.StemmerName, wordanalysis.LatinEnglishName},
	"da":     {lowercase.Name, da.SnowballStemmerName},
	"de":     {lowercase.Name, de.NormalizeName, de.LightStemmerName},
	"en":     {en.PossessiveName, lowercase.Name, en.SnowballStemmerName},
	"es":     {lowercase.Name, es.NormalizeName, es.LightStemmerName},
	"fa":     {lowercase.Name, ar.NormalizeName, fa.NormalizeName, wordanalysis.LatinEnglishName},
	"fi":     {lowercase.Name, fi.SnowballStemmerName},
	"fr":     {lowercase.Name, fr.ElisionName, fr.LightStemmerName},
	"hi":     {lowercase.Name, in.NormalizeName, hi.NormalizeName, hi.StemmerName, wordanalysis.LatinEnglishName},
	"hr":     {lowercase.Name, hr.SuffixTransformationFilterName, hr.StemmerName},
	"hu":     {lowercase.Name, hu.SnowballStemmerName},
	"it":     {lowercase.Name, it.ElisionName, it.LightStemmerName},
	"nl":     {lowercase.Name, nl.SnowballStemmerName},
	"no":     {lowercase.Name, no.SnowballStemmerName},
	"pt":     {lowercase.Name, pt.LightStemmerName},
	"ro":     {lowercase.Name, ro.SnowballStemmerName},
	"ru":     {lowercase.Name, ru.SnowballStemmerName, wordanalysis.LatinEnglishName},
	"sv":     {lowercase.Name, sv.SnowballStemmerName},
	"tr":     {apostrophe.Name, lowercase.Name, tr.SnowballStemmerName},
	langNone: {lowercase.Name, wordanalysis.LatinEnglishName},
}

// stemLanguage returns the language of a note's stem fields: its own when
// bleve has a stemmer for it, else langNone.
func stemLanguage(lang string) string {
	if _, ok := stemFilters[lang]; ok {
		return lang
	}
	return langNone
}

// addStemAnalysis adds the analyzers and fields of the stem languages to
// a mapping.
func addStemAnalysis(im *mapping.IndexMappingImpl, doc *mapping.DocumentMapping) error {
	for _, lang := range slices.Sorted(maps.Keys(stemFilters)) {
		var chain []any
		for _, f := range stemFilters[lang] {
			chain = append(chain, f)
		}
		memo := analyzerStem(lang) + "_memo"
		if err := im.AddCustomTokenFilter(memo, map[string]any{"type": memoType, "filters": chain}); err != nil {
			return err
		}
		err := im.AddCustomAnalyzer(analyzerStem(lang), map[string]any{
			"type":          custom.Name,
			"tokenizer":     unicode.Name,
			"token_filters": []any{dropCJKName, memo},
		})
		if err != nil {
			return err
		}
		for _, field := range []string{fieldStem(lang), fieldStemTitle(lang)} {
			doc.AddFieldMappingsAt(field, &mapping.FieldMapping{Type: "text", Analyzer: analyzerStem(lang), Index: true})
		}
	}
	return nil
}

// dropCJKName is the token filter that leaves CJK out of the stem fields:
// it has no stems, and the text fields find it (see cjkFilter).
const dropCJKName = "wikid_drop_cjk"

func init() {
	err := registry.RegisterTokenFilter(filterNFKC, func(map[string]any, *registry.Cache) (analysis.TokenFilter, error) {
		return unicodenorm.NewUnicodeNormalizeFilter(unicodenorm.NFKC)
	})
	if err != nil {
		panic(err)
	}
	err = registry.RegisterTokenFilter(dropCJKName, func(map[string]any, *registry.Cache) (analysis.TokenFilter, error) {
		return dropCJK{}, nil
	})
	if err != nil {
		panic(err)
	}
}

// dropCJK removes the tokens that hold a CJK character.
type dropCJK struct{}

// Filter implements analysis.TokenFilter.
func (dropCJK) Filter(in analysis.TokenStream) analysis.TokenStream {
	out := in[:0]
	for _, t := range in {
		if !wordanalysis.HasCJK(t.Term) {
			out = append(out, t)
		}
	}
	return out
}
