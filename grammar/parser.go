package grammar

import (
	"errors"
	"time"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The participle grammar. It only shapes the expression: scan has already
// turned every term token into a *Term, and builder picks them up in order.

type pQuery struct {
	Or *pOr `parser:"@@?"`
}

type pOr struct {
	And []*pAnd `parser:"@@ ( 'OR' @@ )*"`
}

type pAnd struct {
	Unary []*pUnary `parser:"@@ ( 'AND'? @@ )*"`
}

type pUnary struct {
	Pos   lexer.Position
	Term  bool    `parser:"  @(String | Field | Word)"`
	Not   *pUnary `parser:"| ( 'NOT' | '-' ) @@"`
	Group *pOr    `parser:"| '(' @@ ')'"`
}

var parser = participle.MustBuild[pQuery](participle.Lexer(queryLexer))

// Parse parses a search query. Dates without a time zone (2024, 2024-06,
// 2024-06-01) are read in loc; nil means UTC. An empty or blank query gives
// a Query with a nil Root.
//
// Every rejected query returns an *Error with the column of the problem:
// a query longer than MaxLength bytes or nested deeper than MaxDepth, bad
// UTF-8, an unterminated quote, a field with an empty value, a bad date or
// path glob, unbalanced parentheses, or an operator without a term on
// each side. Problems inside one token are reported before problems of
// structure. Unknown field names are not errors: they are properties.
func Parse(input string, loc *time.Location) (*Query, error) {
	if loc == nil {
		loc = time.UTC
	}
	s, err := scan(input, loc)
	if err != nil {
		return nil, err
	}
	peek, err := lexer.Upgrade(&tokenList{tokens: s.tokens})
	if err != nil {
		return nil, errorAt(1, "read query: %v", err)
	}
	tree, err := parser.ParseFromLexer(peek)
	if err != nil {
		return nil, syntaxError(s.tokens, err)
	}
	b := builder{terms: s.terms}
	q := &Query{terms: s.terms, plain: plain(s.tokens)}
	if tree.Or != nil {
		q.Root = b.or(tree.Or)
	}
	if b.misplaced || b.next != len(b.terms) {
		// Unreachable: the grammar and scan agree on what a term is.
		return nil, errorAt(1, "internal error: the parsed query does not match its terms")
	}
	return q, nil
}

// plain reports whether tokens hold no operator that joins terms: no
// AND, no OR and no parenthesis.
func plain(tokens []lexer.Token) bool {
	for _, t := range tokens {
		if t.Type == tokKeyword && t.Value != "NOT" || t.Type == tokLParen || t.Type == tokRParen {
			return false
		}
	}
	return true
}

// syntaxError explains a participle error in plain words. diagnose finds
// the problem in the tokens; participle's own position is the fallback.
func syntaxError(tokens []lexer.Token, err error) error {
	if e := diagnose(tokens); e != nil {
		return e
	}
	var unexpected *participle.UnexpectedTokenError
	if errors.As(err, &unexpected) {
		col := column(unexpected.Unexpected)
		return errorAt(col, "unexpected %s at column %d", describe(unexpected.Unexpected), col)
	}
	var perr participle.Error
	if errors.As(err, &perr) {
		col := perr.Position().Offset + 1
		return errorAt(col, "syntax error at column %d", col)
	}
	return errorAt(1, "syntax error: %v", err)
}

// builder turns participle's tree into the AST, flattening groups and
// nested And and Or nodes.
type builder struct {
	terms     []*Term
	next      int
	misplaced bool // a term of the tree is not where scan saw it
}

func (b *builder) or(p *pOr) Node {
	var nodes []Node
	for _, a := range p.And {
		n := b.and(a)
		if or, ok := n.(*Or); ok {
			nodes = append(nodes, or.Nodes...)
		} else {
			nodes = append(nodes, n)
		}
	}
	if len(nodes) == 1 {
		return nodes[0]
	}
	return &Or{Nodes: nodes}
}

func (b *builder) and(p *pAnd) Node {
	var nodes []Node
	for _, u := range p.Unary {
		n := b.unary(u)
		if and, ok := n.(*And); ok {
			nodes = append(nodes, and.Nodes...)
		} else {
			nodes = append(nodes, n)
		}
	}
	if len(nodes) == 1 {
		return nodes[0]
	}
	return &And{Nodes: nodes}
}

func (b *builder) unary(p *pUnary) Node {
	switch {
	case p.Not != nil:
		return &Not{Node: b.unary(p.Not)}
	case p.Group != nil:
		return b.or(p.Group)
	default:
		if b.next >= len(b.terms) || b.terms[b.next].Pos != p.Pos.Offset+1 {
			b.misplaced = true
			return &Term{Pos: p.Pos.Offset + 1}
		}
		t := b.terms[b.next]
		b.next++
		return t
	}
}
