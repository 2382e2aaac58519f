package index

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/wikid/wikid/grammar"
	"github.com/wikid/wikid/internal/index/analysis"
	"github.com/wikid/wikid/internal/wiki"
)

// A question is a query in plain words: two or more free words side by
// side, with no AND, OR or parentheses (grammar.Query.Plain). It keeps the
// strict meaning of the query language first, every word in every note
// found; when that finds fewer notes than the page holds, the notes that
// hold some of the words follow, ranked by BM25 times the share of the
// words they hold (each weighed by its rarity), a bonus for holding them
// close together, and less for a note in another script or language than
// the question's. Stop words of the question's language count only in the
// strict part. Quoted phrases, prefixes, field terms and exclusions stay
// strict in both parts, as do the filters.

// questionDepth is how many notes a question ranks when it relaxes: its
// results, over every page, are at most these.
const questionDepth = 100

// Weights of the relaxed ranking, tuned on the labelled sets of package
// quality.
const (
	// coverageExponent raises the share of the question's words a note
	// holds before it multiplies the note's BM25 score (which bleve has
	// already multiplied by that share once). The cube measured best: on
	// the help vault's questions, top 5 went from 42% at 1 to 50%; on the
	// CLI documentation's, from 73% to 77%.
	coverageExponent = 3
	// proximityBonus is the most that holding the words close together
	// adds: a note whose words stand side by side scores this much more.
	// It measured neutral on both sets, and breaks ties the way a reader
	// would.
	proximityBonus = 0.5
	// foreignWeight weighs a note in another script or language than the
	// question: on the help vault, translated into 35 languages, it took
	// the questions' top 5 from 50% to 57%.
	foreignWeight = 0.5
)

// question is a plain query read as a question.
type question struct {
	// words are the content words: the free words that are no stop words
	// (all of them when every one is), each with its query.
	words []questionWord
	// strict are the terms that stay required, or excluded: phrases,
	// prefixes, fields and negations. A negated stop word is left out.
	strict []grammar.Node
	// marked are the tokens of the words and the positive strict free
	// text, for snippets.
	marked []markedTerm
	// lang and script are the language (a code, "" when it cannot be
	// told) and the script the question is written in.
	lang, script string
}

// questionWord is one content word and the terms of its query, by field,
// by which a hit's term locations tell whether it holds the word.
type questionWord struct {
	query query.Query
	terms map[string]map[string]bool // field → term
}

// markedTerm is a term a question's snippets mark.
type markedTerm struct {
	tokens []string
	prefix bool
}

// askQuestion returns the question q asks, or nil when q is not one: not
// plain, or fewer than two free words. A free word is an unquoted word
// that is not a prefix, standing on its own; a word under an even number
// of negations ("--x") is required as it is.
func (c *compiler) askQuestion(q *grammar.Query) *question {
	if !q.Plain() {
		return nil
	}
	nodes := []grammar.Node{q.Root}
	if and, ok := q.Root.(*grammar.And); ok {
		nodes = and.Nodes
	}
	var words []string
	for _, t := range q.Terms() {
		if t.Field == grammar.FieldText {
			words = append(words, t.Value)
		}
	}
	text := strings.Join(words, " ")
	code := analysis.Detect(text)
	lang := analysis.LanguageIndex(cmp.Or(code, "en"))
	out := &question{lang: code, script: analysis.DominantScript(text)}
	var free []*grammar.Term
	for _, n := range nodes {
		negated := false
		for {
			not, ok := n.(*grammar.Not)
			if !ok {
				break
			}
			negated, n = !negated, not.Node
		}
		t, ok := n.(*grammar.Term)
		switch {
		case !ok:
			return nil // unreachable for a plain query
		case negated && t.Field == grammar.FieldText && !t.Phrase && isStopWord(c.phraseTerms(t.Value), lang):
			// "-a" excludes nearly every note: a question ignores it, as
			// it ignores the stop words it holds.
		case negated:
			out.strict = append(out.strict, &grammar.Not{Node: t})
		case t.Field == grammar.FieldText && !t.Phrase && !t.Prefix:
			free = append(free, t)
		default:
			out.strict = append(out.strict, t)
			if t.Field == grammar.FieldText {
				out.marked = append(out.marked, markedTerm{c.phraseTerms(t.Value), t.Prefix})
			}
		}
	}
	if len(free) < 2 {
		return nil
	}
	content := make([]*grammar.Term, 0, len(free))
	seen := map[string]bool{}
	for _, t := range free {
		tokens := c.phraseTerms(t.Value)
		key := join(tokens)
		if len(tokens) == 0 || seen[key] || isStopWord(tokens, lang) {
			continue
		}
		seen[key] = true
		content = append(content, t)
	}
	if len(content) == 0 {
		content = free
	}
	for _, t := range content {
		tokens := c.phraseTerms(t.Value)
		qw, err := c.text(t, tokens, freeText)
		if err != nil {
			continue
		}
		out.words = append(out.words, questionWord{query: qw, terms: termsOf(qw)})
		out.marked = append(out.marked, markedTerm{tokens, false})
	}
	if len(out.words) == 0 {
		return nil
	}
	return out
}

// relaxed returns the query of the notes that hold at least one of the
// question's words and every strict term.
func (c *compiler) relaxed(ctx context.Context, q *question) (query.Query, error) {
	qs := make([]query.Query, len(q.words))
	for i, w := range q.words {
		qs[i] = w.query
	}
	any := query.Query(query.NewDisjunctionQuery(qs))
	if len(q.strict) == 0 {
		return any, nil
	}
	strict, err := c.and(ctx, q.strict, true)
	if err != nil {
		return nil, err
	}
	return query.NewConjunctionQuery([]query.Query{strict, any}), nil
}

// ranked is a note of a question's answer: its score and how many of the
// question's words it holds.
type ranked struct {
	id      string
	score   float64
	matched int
}

// rank orders a question's relaxed hits: the notes of the strict answer
// first, in their order and with their scores, then the others by their
// BM25 score times the share of the words they hold, each word weighed by
// its inverse document frequency (a note holding the rare words of a
// question says more than one holding its common ones), raised to
// coverageExponent, and the proximity bonus; notes in foreign script or
// language weigh less. held tells, for each word, which hits hold it, and
// idf the words' weights.
func (q *question) rank(strict, hits []*search.DocumentMatch, held []map[string]bool, idf []float64, foreign map[string]bool) []ranked {
	out := make([]ranked, 0, len(hits)+len(strict))
	first := make(map[string]bool, len(strict))
	for _, h := range strict {
		first[h.ID] = true
		out = append(out, ranked{h.ID, h.Score, len(q.words)})
	}
	all := 0.0
	for _, f := range idf {
		all += f
	}
	rest := make([]ranked, 0, len(hits))
	for _, h := range hits {
		if first[h.ID] {
			continue
		}
		m, share := 0, 0.0
		for i := range q.words {
			if held[i][h.ID] {
				m++
				share += idf[i]
			}
		}
		score := h.Score * pow(share/all, coverageExponent)
		if span := q.span(h); m > 1 && span > 0 {
			score *= 1 + proximityBonus*float64(m)/float64(span)
		}
		if foreign[h.ID] {
			score *= foreignWeight
		}
		rest = append(rest, ranked{h.ID, score, m})
	}
	slices.SortStableFunc(rest, func(a, b ranked) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	return append(out, rest...)
}

// foreign returns the hits written in another script than the question,
// or in another language when both languages are known.
func (x *Index) foreign(ctx context.Context, q *question, ids []string) (map[string]bool, error) {
	out := map[string]bool{}
	same := []query.Query{query.NewDocIDQuery(ids)}
	for _, c := range []struct{ field, value string }{{fieldScript, q.script}, {fieldLangKey, q.lang}} {
		if c.value != "" {
			same = append(same, query.NewDisjunctionQuery([]query.Query{exactTerm(c.field, c.value), exactTerm(c.field, "-")}))
		}
	}
	if len(ids) == 0 || len(same) == 1 {
		return out, nil
	}
	res, err := x.bi.SearchInContext(ctx, searchRequest(query.NewConjunctionQuery(same), len(ids), nil))
	if err != nil {
		return nil, searchError(ctx, err)
	}
	ok := make(map[string]bool, len(res.Hits))
	for _, h := range res.Hits {
		ok[h.ID] = true
	}
	for _, id := range ids {
		if !ok[id] {
			out[id] = true
		}
	}
	return out, nil
}

// exactTerm matches a keyword field's value as written.
func exactTerm(field, value string) query.Query {
	q := query.NewTermQuery(value)
	q.SetField(field)
	return q
}

// span returns the shortest run of body positions that holds one of each
// of the question's words the body holds as written, by the hit's term
// locations; 0 when it holds fewer than two.
func (q *question) span(h *search.DocumentMatch) int {
	var body [][]uint64 // positions of each word held in the body
	for _, w := range q.words {
		var pos []uint64
		for term, locs := range h.Locations[fieldBody] {
			if w.terms[fieldBody][term] {
				for _, l := range locs {
					pos = append(pos, l.Pos)
				}
			}
		}
		if len(pos) > 0 {
			body = append(body, pos)
		}
	}
	if len(body) < 2 {
		return 0
	}
	return shortestSpan(body)
}

// weigh returns, for each of the question's words, which of the hits hold
// it (as written or in another form), and its inverse document frequency
// in the index: by the rarest of its terms in the body as written.
func (x *Index) weigh(ctx context.Context, q *question, ids []string) ([]map[string]bool, []float64, error) {
	n, err := x.bi.DocCount()
	if err != nil {
		return nil, nil, err
	}
	adv, err := x.bi.Advanced()
	if err != nil {
		return nil, nil, err
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	held := make([]map[string]bool, len(q.words))
	idf := make([]float64, len(q.words))
	for i, w := range q.words {
		df := int(n)
		for term := range w.terms[fieldBody] {
			c, err := termCount(ctx, r, fieldBody, term)
			if err != nil {
				return nil, nil, err
			}
			df = min(df, c)
		}
		idf[i] = math.Log(1 + float64(n)/float64(1+df))
		held[i] = map[string]bool{}
		if len(ids) == 0 {
			continue
		}
		among := searchRequest(query.NewConjunctionQuery([]query.Query{w.query, query.NewDocIDQuery(ids)}), len(ids), nil)
		res, err := x.bi.SearchInContext(ctx, among)
		if err != nil {
			return nil, nil, searchError(ctx, err)
		}
		for _, h := range res.Hits {
			held[i][h.ID] = true
		}
	}
	return held, idf, nil
}

// shortestSpan returns the length of the shortest run of positions that
// holds one position of each list.
func shortestSpan(lists [][]uint64) int {
	type at struct {
		pos  uint64
		list int
	}
	var all []at
	for i, l := range lists {
		for _, p := range l {
			all = append(all, at{p, i})
		}
	}
	slices.SortFunc(all, func(a, b at) int { return cmp.Compare(a.pos, b.pos) })
	count := make([]int, len(lists))
	have, best, lo := 0, 0, 0
	for hi := range all {
		if count[all[hi].list] == 0 {
			have++
		}
		count[all[hi].list]++
		for have == len(lists) {
			if span := int(all[hi].pos-all[lo].pos) + 1; best == 0 || span < best {
				best = span
			}
			count[all[lo].list]--
			if count[all[lo].list] == 0 {
				have--
			}
			lo++
		}
	}
	return best
}

// termsOf returns the terms a word's query matches, by field: the terms
// of its term and phrase queries (a prefix query's prefix is left out).
func termsOf(q query.Query) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	add := func(field string, terms ...string) {
		if out[field] == nil {
			out[field] = map[string]bool{}
		}
		for _, t := range terms {
			if t != "" {
				out[field][t] = true
			}
		}
	}
	var walk func(query.Query)
	walk = func(q query.Query) {
		switch q := q.(type) {
		case *query.TermQuery:
			add(q.FieldVal, q.Term)
		case *query.PhraseQuery:
			add(q.FieldVal, q.Terms...)
		case *query.DisjunctionQuery:
			for _, d := range q.Disjuncts {
				walk(d)
			}
		case *query.ConjunctionQuery:
			for _, d := range q.Conjuncts {
				walk(d)
			}
		case *query.BooleanQuery:
			walk(q.Must)
			walk(q.Should)
		}
	}
	walk(q)
	return out
}

// isStopWord reports whether every token of a word is a stop word of the
// language a question is asked in (an index into languages; -1 for none).
func isStopWord(tokens []string, lang int) bool {
	if lang < 0 {
		return false
	}
	stop := analysis.StopWords()
	for _, t := range tokens {
		folded := make([]byte, 0, len(t))
		for _, r := range t {
			folded = utf8.AppendRune(folded, analysis.FoldRune(r))
		}
		if stop[string(folded)]&(1<<lang) == 0 {
			return false
		}
	}
	return true
}

func join(tokens []string) string {
	n := 0
	for _, t := range tokens {
		n += len(t) + 1
	}
	b := make([]byte, 0, n)
	for _, t := range tokens {
		b = append(b, t...)
		b = append(b, 0)
	}
	return string(b)
}

func pow(x float64, n int) float64 {
	out := 1.0
	for range n {
		out *= x
	}
	return out
}

// questionPage returns one page of a question's relaxed answer.
func (x *Index) questionPage(ctx context.Context, c *compiler, q *question, strict []*search.DocumentMatch, filter query.Query, offset, limit, snippets int, fields []string) (*wiki.SearchResult, error) {
	rq, err := c.relaxed(ctx, q)
	if err != nil {
		return nil, err
	}
	sreq := searchRequest(withFilter(rq, filter), questionDepth+len(strict), nil)
	sreq.IncludeLocations = true
	res, err := x.bi.SearchInContext(ctx, sreq)
	if err != nil {
		return nil, searchError(ctx, err)
	}
	found := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		found[i] = h.ID
	}
	held, idf, err := x.weigh(ctx, q, found)
	if err != nil {
		return nil, err
	}
	foreign, err := x.foreign(ctx, q, found)
	if err != nil {
		return nil, err
	}
	order := q.rank(strict, res.Hits, held, idf, foreign)
	order = order[:min(len(order), questionDepth)]
	out := &wiki.SearchResult{Total: max(int(res.Total), len(strict)), QuestionWords: len(q.words)}
	end := min(offset+limit, len(order))
	if offset >= end {
		out.Results = []wiki.SearchHit{}
		return out, nil
	}
	ids := make([]string, 0, end-offset)
	byID := make(map[string]ranked, end-offset)
	for _, r := range order[offset:end] {
		ids = append(ids, r.id)
		byID[r.id] = r
	}
	page, err := x.fetch(ctx, ids, fields)
	if err != nil {
		return nil, err
	}
	out.Results = make([]wiki.SearchHit, len(page))
	for i, h := range page {
		out.Results[i] = hit(h, c.dates)
		out.Results[i].Score, out.Results[i].Matched = byID[h.ID].score, byID[h.ID].matched
	}
	if snippets > 0 {
		c.hl = newHighlighter()
		for _, m := range q.marked {
			c.hl.add(m.tokens, m.prefix)
		}
		addSnippets(c, page, out.Results, snippets)
	}
	if end < len(order) {
		out.NextCursor = questionCursor(end)
	}
	return out, nil
}

// fetch returns the stored fields of the notes with the given ids, in
// their order; a note no longer in the index is left out.
func (x *Index) fetch(ctx context.Context, ids []string, fields []string) ([]*search.DocumentMatch, error) {
	sreq := searchRequest(query.NewDocIDQuery(ids), len(ids), fields)
	res, err := x.bi.SearchInContext(ctx, sreq)
	if err != nil {
		return nil, searchError(ctx, err)
	}
	byID := make(map[string]*search.DocumentMatch, len(res.Hits))
	for _, h := range res.Hits {
		byID[h.ID] = h
	}
	out := make([]*search.DocumentMatch, 0, len(ids))
	for _, id := range ids {
		if h := byID[id]; h != nil {
			out = append(out, h)
		}
	}
	return out, nil
}
