package index

import (
	"context"
	"fmt"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/wikid/wikid/grammar"
	"github.com/wikid/wikid/internal/index/analysis"
	"github.com/wikid/wikid/internal/wiki"
)

// Boosts of the free-text fields: a word in the title counts three times
// as much as in the body, in an alias twice.
const (
	boostTitle   = 3
	boostAliases = 2
	boostBody    = 1
)

// weighted is a text field and its boost in a free-text query.
type weighted struct {
	field string
	boost float64
}

var (
	freeText  = []weighted{{fieldTitle, boostTitle}, {fieldAliases, boostAliases}, {fieldBody, boostBody}}
	titleOnly = []weighted{{fieldTitle, 1}}
)

// compiler turns a parsed query into a bleve query, in one walk over its
// tree. linkedfrom terms read the index, through bi, unless linked holds
// the link graph's answers to link terms (wiki.SearchRequest.Linked). With
// hl set, the walk also gathers the words of the free-text terms that are
// not negated, for snippets.
type compiler struct {
	bi     bleve.Index
	im     *mapping.IndexMappingImpl
	linked map[wiki.LinkTerm][]string
	dates  wiki.GitDates // git's dates of the notes, for date terms and sorts
	tables *dateTables   // the index's tables of git's dates
	// searchDates is set once a date term or sort needs git's dates: the
	// search's query must then be wrapped by withDates.
	searchDates *searchDates
	common      commonWords  // see bodyPhrase
	langs       []string     // the stem languages of the index, see forms
	hl          *highlighter // nil: no snippets
}

// compile returns the bleve query for q; a nil query, or one without a
// root, matches every note. It returns an error wrapping
// wiki.ErrInvalidQuery, with the column in its Details, for a term that
// cannot be compiled.
func (c *compiler) compile(ctx context.Context, q *grammar.Query) (query.Query, error) {
	if q == nil || q.Root == nil {
		return query.NewMatchAllQuery(), nil
	}
	return c.node(ctx, q.Root, true)
}

// node compiles n; positive is false under an odd number of negations.
func (c *compiler) node(ctx context.Context, n grammar.Node, positive bool) (query.Query, error) {
	switch n := n.(type) {
	case *grammar.And:
		return c.and(ctx, n.Nodes, positive)
	case *grammar.Or:
		qs, err := c.nodes(ctx, n.Nodes, positive)
		if err != nil {
			return nil, err
		}
		return query.NewDisjunctionQuery(qs), nil
	case *grammar.Not:
		// On its own, a negation means "every note except".
		neg, err := c.node(ctx, n.Node, !positive)
		if err != nil {
			return nil, err
		}
		return except(query.NewMatchAllQuery(), []query.Query{neg}), nil
	case *grammar.Term:
		return c.term(ctx, n, positive)
	default:
		return nil, fmt.Errorf("compile query: unknown node %T", n)
	}
}

func (c *compiler) nodes(ctx context.Context, ns []grammar.Node, positive bool) ([]query.Query, error) {
	qs := make([]query.Query, 0, len(ns))
	for _, n := range ns {
		q, err := c.node(ctx, n, positive)
		if err != nil {
			return nil, err
		}
		qs = append(qs, q)
	}
	return qs, nil
}

// and compiles a conjunction: the negated operands become must_not clauses
// of the others, or of every note when all operands are negated.
func (c *compiler) and(ctx context.Context, ns []grammar.Node, positive bool) (query.Query, error) {
	var pos, neg []grammar.Node
	for _, n := range ns {
		if not, ok := n.(*grammar.Not); ok {
			neg = append(neg, not.Node)
		} else {
			pos = append(pos, n)
		}
	}
	must, err := c.nodes(ctx, pos, positive)
	if err != nil {
		return nil, err
	}
	mustNot, err := c.nodes(ctx, neg, !positive)
	if err != nil {
		return nil, err
	}
	var base query.Query
	switch len(must) {
	case 0:
		base = query.NewMatchAllQuery()
	case 1:
		base = must[0]
	default:
		base = query.NewConjunctionQuery(must)
	}
	if len(mustNot) == 0 {
		return base, nil
	}
	return except(base, mustNot), nil
}

// except matches base but none of neg.
func except(base query.Query, neg []query.Query) query.Query {
	return &query.BooleanQuery{
		Must:    must(base),
		MustNot: query.NewDisjunctionQuery(neg),
	}
}

func (c *compiler) term(ctx context.Context, t *grammar.Term, positive bool) (query.Query, error) {
	switch t.Field {
	case grammar.FieldText:
		tokens := c.phraseTerms(t.Value)
		if positive && c.hl != nil {
			c.hl.add(tokens, t.Prefix)
		}
		return c.text(t, tokens, freeText)
	case grammar.FieldTitle:
		return c.text(t, c.phraseTerms(t.Value), titleOnly)
	case grammar.FieldTag:
		tag := normTag(t.Value)
		if tag == "" {
			return nil, queryError(t, "tag: needs a tag name")
		}
		return c.keyword(fieldTags, tag, t.Prefix), nil
	case grammar.FieldFolder:
		folder := strings.Trim(strings.TrimSpace(t.Value), "/")
		if folder == "" && !t.Prefix {
			return query.NewMatchAllQuery(), nil
		}
		return c.keyword(fieldFolders, folder, t.Prefix), nil
	case grammar.FieldPath:
		return c.path(t)
	case grammar.FieldLinks:
		target := normPath(t.Value)
		if target == "" {
			return nil, queryError(t, "links: needs a note path")
		}
		if c.linked != nil {
			return c.linkedNotes(t), nil
		}
		return c.keyword(fieldLinks, target, t.Prefix), nil
	case grammar.FieldLinkedFrom:
		if c.linked != nil {
			if normPath(t.Value) == "" {
				return nil, queryError(t, "linkedfrom: needs a note path")
			}
			return c.linkedNotes(t), nil
		}
		return c.linkedFrom(ctx, t)
	case grammar.FieldCreated:
		return c.dateRange(t, createdDate)
	case grammar.FieldModified:
		return c.dateRange(t, modifiedDate)
	default:
		key := strings.ToLower(strings.TrimSpace(t.Field))
		return c.keyword(fieldProps, propTerm(key, t.Value), t.Prefix), nil
	}
}

// text compiles a word or a phrase, whose phraseTerms are tokens, over
// weighted text fields: a single token is a term, several (a quoted
// phrase, a word such as "wiki-ai" that the analyzer splits, or CJK text)
// a phrase; a prefix applies to the last token. An unquoted word also
// matches its other forms (see forms).
func (c *compiler) text(t *grammar.Term, tokens []string, fields []weighted) (query.Query, error) {
	if len(tokens) == 0 {
		if t.Prefix && t.Value == "" {
			return query.NewMatchAllQuery(), nil
		}
		// Nothing searchable, such as "--": nothing can match.
		return query.NewMatchNoneQuery(), nil
	}
	var qs []query.Query
	for _, f := range fields {
		var q query.Query
		switch {
		case t.Prefix:
			q = prefixPhrase(tokens, f.field)
		case len(tokens) == 1:
			tq := query.NewTermQuery(tokens[0])
			tq.SetField(f.field)
			q = tq
		case f.field == fieldBody:
			q = c.bodyPhrase(tokens)
		default:
			q = query.NewPhraseQuery(tokens, f.field)
		}
		q.(query.BoostableQuery).SetBoost(f.boost)
		qs = append(qs, q)
	}
	if forms := c.forms(t, tokens, fields); forms != nil {
		exact := qs[0]
		if len(qs) > 1 {
			exact = query.NewDisjunctionQuery(qs)
		}
		return query.NewDisjunctionQuery([]query.Query{exact, forms}), nil
	}
	if len(qs) == 1 {
		return qs[0], nil
	}
	return query.NewDisjunctionQuery(qs), nil
}

// prefixPhrase matches the tokens but the last as words, and the last as a
// prefix. Bleve has no phrase-prefix query, so the words need not be
// adjacent.
func prefixPhrase(tokens []string, field string) query.Query {
	last := query.NewPrefixQuery(tokens[len(tokens)-1])
	last.SetField(field)
	if len(tokens) == 1 {
		return last
	}
	qs := []query.Query{last}
	for _, tok := range tokens[:len(tokens)-1] {
		if tok == "" {
			continue // a gap of a CJK phrase
		}
		tq := query.NewTermQuery(tok)
		tq.SetField(field)
		qs = append(qs, tq)
	}
	return query.NewConjunctionQuery(qs)
}

// keyword matches one whole value of a keyword field, or its prefix.
func (c *compiler) keyword(field, value string, prefix bool) query.Query {
	term := c.key(value)
	if prefix {
		q := query.NewPrefixQuery(term)
		q.SetField(field)
		return q
	}
	q := query.NewTermQuery(term)
	q.SetField(field)
	return q
}

// path compiles a path glob: '*' matches any run of characters ('/'
// included), '?' one character; a value without either is an exact path.
// Matching ignores case.
func (c *compiler) path(t *grammar.Term) (query.Query, error) {
	p := strings.Trim(strings.TrimSpace(t.Value), "/")
	if p == "" {
		return nil, queryError(t, "path: needs a path or a glob such as notes/*")
	}
	if !strings.ContainsAny(p, "*?") {
		return c.keyword(fieldPath, normPath(p), t.Prefix), nil
	}
	q := query.NewWildcardQuery(c.key(p))
	q.SetField(fieldPath)
	return q, nil
}

// linkedNotes matches the notes that the link graph gives for a links: or
// linkedfrom: term, and nothing when it gives none.
func (c *compiler) linkedNotes(t *grammar.Term) query.Query {
	lt, _ := wiki.LinkTermOf(t)
	return notes(c.linked[lt])
}

// notes matches the notes with the given paths, and nothing when there
// are none.
func notes(paths []string) query.Query {
	if len(paths) == 0 {
		return query.NewMatchNoneQuery()
	}
	return query.NewDocIDQuery(paths)
}

// linkedFrom matches the notes that the source note links to: it reads the
// source's links from the index. A missing source, or one without links,
// matches nothing.
func (c *compiler) linkedFrom(ctx context.Context, t *grammar.Term) (query.Query, error) {
	src := normPath(t.Value)
	if src == "" {
		return nil, queryError(t, "linkedfrom: needs a note path")
	}
	links, err := c.links(ctx, src)
	if err != nil {
		return nil, err
	}
	if len(links) == 0 {
		return query.NewMatchNoneQuery(), nil
	}
	qs := make([]query.Query, 0, len(links))
	for _, l := range links {
		qs = append(qs, c.keyword(fieldPath, l, false))
	}
	return query.NewDisjunctionQuery(qs), nil
}

// links returns the stored links of the note at path src (case-insensitive;
// an exact match of the case wins over others).
func (c *compiler) links(ctx context.Context, src string) ([]string, error) {
	q := query.NewTermQuery(c.key(src))
	q.SetField(fieldPath)
	req := bleve.NewSearchRequestOptions(q, 10, 0, false)
	req.Fields = []string{fieldLinks}
	req.SortBy([]string{"_id"})
	res, err := c.bi.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("look up links of %q: %w", src, err)
	}
	var links []string
	for _, h := range res.Hits {
		ls := storedStrings(h.Fields[fieldLinks])
		if h.ID == src {
			return ls, nil
		}
		links = append(links, ls...)
	}
	return links, nil
}

// dateRange compiles a created: or modified: term into its half-open
// interval [From, To).
func (c *compiler) dateRange(t *grammar.Term, k *dateKind) (query.Query, error) {
	r := t.Date
	if r == nil {
		return nil, queryError(t, "%s: needs a date such as >=2024-01-01 or 2024-01..2024-03", t.Field)
	}
	return c.dateTerm(k, r.From, r.To), nil
}

// key returns the single term the keyword analyzer makes of s.
func (c *compiler) key(s string) string {
	tokens := c.tokens(analyzerKey, s)
	if len(tokens) == 0 {
		return ""
	}
	return tokens[0]
}

// phraseTerms returns the terms of a query's text as a phrase: one per
// position, from the text analyzer. The characters of a CJK run of two or
// more are left out, as "", since the bigrams beside them cover them: a
// phrase query takes "" for any term, so "ノート" is the phrase of "ノー",
// any, "ート". Gaps at either end are dropped, so a CJK word of two
// characters is one term, its bigram.
func (c *compiler) phraseTerms(s string) []string {
	a := c.im.AnalyzerNamed(analyzerText)
	if a == nil {
		return nil
	}
	stream := a.Analyze([]byte(s))
	out := make([]string, 0, len(stream))
	for _, tok := range stream {
		if tok.Type == analysis.CJKCovered {
			out = append(out, "")
		} else {
			out = append(out, string(tok.Term))
		}
	}
	for len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// tokens returns the terms an analyzer makes of s.
func (c *compiler) tokens(analyzer, s string) []string {
	a := c.im.AnalyzerNamed(analyzer)
	if a == nil {
		return nil
	}
	stream := a.Analyze([]byte(s))
	out := make([]string, 0, len(stream))
	for _, tok := range stream {
		out = append(out, string(tok.Term))
	}
	return out
}

// queryError returns an INVALID_QUERY error about term t, with its column.
func queryError(t *grammar.Term, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	e := wiki.Errorf(wiki.CodeInvalidQuery, "%s at column %d", msg, t.Pos)
	e.Details = map[string]any{"column": t.Pos}
	return e
}

// storedStrings returns a stored field of a hit as strings: bleve returns
// one value as itself and several as a slice.
func storedStrings(v any) []string {
	switch v := v.(type) {
	case nil:
		return nil
	case string:
		return []string{v}
	case []any:
		out := make([]string, 0, len(v))
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	default:
		return nil
	}
}
