package index

import (
	"cmp"
	"slices"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/wikid/wikid/grammar"
	"github.com/wikid/wikid/internal/index/analysis"
	"github.com/wikid/wikid/internal/wiki"
)

// A word finds its other forms: "plugin" finds "plugins", "sync" finds
// "syncing" and "synced", and in German notes "Notiz" finds "Notizen".
// Besides its exact text fields, each note has two stem fields in its
// language (see noteLanguage and stemFilters): one of its title, one of
// its aliases and body. A note without a language, or in one bleve has no
// stemmer for, has them in langNone. An unquoted word that the text
// analyzer keeps whole (not a prefix, not CJK) matches its exact fields,
// as before, or its stem in the stem fields of each language the index
// holds, as that language stems it.
//
// Bleve scores a disjunction by the sum of its matching clauses times the
// share of the clauses that match. A note that holds the word as written
// matches both the exact and the stem clauses; one that holds another form
// only matches the stem clauses, at half the share and a lower boost: the
// word as written ranks first, all else equal. For that to hold for every
// note, a note must match its stem clause wherever it matches exactly: so
// the stem fields keep stop words (English drops "will", German does
// not), and notes without a language have stem fields too. A note matches
// the clauses of its own language only: the boost of the stem clauses
// makes up for the share of the other languages, so that how many
// languages an index holds does not change scores.

// formsBoost weighs a stem against an exact match.
const formsBoost = 0.5

// addForms adds a note's language and stem fields to its bleve document
// f, and returns their language.
func addForms(f map[string]any, d *wiki.Document) string {
	lang := noteLanguage(d)
	stem := stemLanguage(lang)
	f[fieldLang] = lang
	f[fieldLangKey] = cmp.Or(lang, "-")
	f[fieldStemTitle(stem)] = d.Title
	f[fieldStem(stem)] = append(slices.Clip(d.Aliases), d.Body)
	return stem
}

// forms returns the query for the other forms of a word term, whose
// phraseTerms are tokens, over the stem fields of the weighted text
// fields: nil when the term matches as written only (a phrase, a prefix,
// several tokens, CJK), or when the index holds no stem fields. When the
// highlighter has the word, it gets the word's stems too.
func (c *compiler) forms(t *grammar.Term, tokens []string, fields []weighted) query.Query {
	if t.Phrase || t.Prefix || len(tokens) != 1 || len(c.langs) == 0 || analysis.HasCJK([]byte(tokens[0])) {
		return nil
	}
	word := tokens[0]
	var stemmed []weighted // "title" and "text"
	for _, f := range fields {
		switch f.field {
		case fieldTitle:
			stemmed = append(stemmed, weighted{"title", f.boost})
		case fieldBody:
			stemmed = append(stemmed, weighted{"text", f.boost})
		}
	}
	if len(stemmed) == 0 {
		return nil
	}
	var qs []*query.TermQuery
	for _, lang := range c.langs {
		stem := c.stem(lang, word)
		if stem == "" {
			continue
		}
		if c.hl != nil && c.hl.words[word] {
			c.hl.addForm(lang, stem, word)
		}
		for _, f := range stemmed {
			tq := query.NewTermQuery(stem)
			if f.field == "title" {
				tq.SetField(fieldStemTitle(lang))
			} else {
				tq.SetField(fieldStem(lang))
			}
			tq.SetBoost(f.boost)
			qs = append(qs, tq)
		}
	}
	if len(qs) == 0 {
		return nil
	}
	// A note matches the clauses of its language only, one language in
	// len(qs)/len(stemmed): the boost makes up for that share.
	langs := float64(len(qs) / len(stemmed))
	out := make([]query.Query, len(qs))
	for i, tq := range qs {
		tq.SetBoost(tq.Boost() * formsBoost * langs)
		out[i] = tq
	}
	if len(out) == 1 {
		return out[0]
	}
	return query.NewDisjunctionQuery(out)
}

// stem returns the one term the stem analyzer of lang makes of word, or
// "".
func (c *compiler) stem(lang, word string) string {
	a := c.im.AnalyzerNamed(analyzerStem(lang))
	if a == nil {
		return ""
	}
	stream := a.Analyze([]byte(word))
	if len(stream) != 1 {
		return ""
	}
	return string(stream[0].Term)
}
