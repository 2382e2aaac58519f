package grammar

import (
	"time"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// scanned is a query split into tokens, checked token by token.
type scanned struct {
	// tokens holds every token except white space, the words AND, OR and
	// NOT retyped as keywords, and a final EOF token.
	tokens []lexer.Token
	// terms holds the term of every word, phrase and field token, in
	// input order.
	terms []*Term
}

// scan lexes input and checks everything that one token at a time can
// tell: the length and encoding of the input, quotes, field values, dates,
// globs, a '-' with nothing right after it, and the nesting depth. It
// returns the first problem, leftmost first, as an *Error.
func scan(input string, loc *time.Location) (*scanned, error) {
	if len(input) > MaxLength {
		return nil, errorAt(MaxLength+1, "query too long: %d bytes, at most %d", len(input), MaxLength)
	}
	if !utf8.ValidString(input) {
		col := firstInvalidUTF8(input) + 1
		return nil, errorAt(col, "invalid UTF-8 at column %d", col)
	}
	raw, err := lexAll(input)
	if err != nil {
		return nil, err
	}
	s := &scanned{tokens: make([]lexer.Token, 0, len(raw))}
	d := depth{}
	for i, t := range raw {
		switch {
		case t.Type == tokSpace:
			continue
		case t.Type == tokWord && (t.Value == "AND" || t.Value == "OR" || t.Value == "NOT"):
			t.Type = tokKeyword
		case t.Type == tokMinus:
			if next := raw[i+1]; next.EOF() || next.Type == tokSpace {
				return nil, errorAt(column(t), "dangling operator '-' at column %d: expected a term right after it, with no space", column(t))
			}
		case isTerm(t):
			term, err := newTerm(t, loc)
			if err != nil {
				return nil, err
			}
			s.terms = append(s.terms, term)
		}
		if err := d.track(t); err != nil {
			return nil, err
		}
		s.tokens = append(s.tokens, t)
	}
	return s, nil
}

// lexAll runs queryLexer over input and returns every token, white space
// included, ending with EOF.
func lexAll(input string) ([]lexer.Token, error) {
	lx, err := queryLexer.LexString("", input)
	if err != nil {
		return nil, errorAt(1, "read query: %v", err)
	}
	tokens := make([]lexer.Token, 0, 16)
	for {
		t, err := lx.Next()
		if err != nil {
			// Unreachable: every input lexes. Say where, in plain words.
			col := 1
			if perr, ok := err.(interface{ Position() lexer.Position }); ok {
				col = perr.Position().Offset + 1
			}
			return nil, errorAt(col, "unexpected character at column %d", col)
		}
		tokens = append(tokens, t)
		if t.EOF() {
			return tokens, nil
		}
	}
}

// firstInvalidUTF8 returns the byte offset of the first invalid UTF-8
// sequence in s, or len(s) if there is none.
func firstInvalidUTF8(s string) int {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(s)
}

// depth tracks how deeply parentheses and negations nest, so that a
// hostile query is rejected before the recursive descent parser sees it.
type depth struct {
	base    int   // nesting of the innermost open group
	pending int   // negations waiting for their operand
	stack   []int // base of each enclosing group
}

// track accounts for one token and returns an *Error once the nesting
// goes past MaxDepth.
func (d *depth) track(t lexer.Token) error {
	switch {
	case t.Type == tokLParen:
		d.stack = append(d.stack, d.base)
		d.base += d.pending + 1
		d.pending = 0
	case t.Type == tokRParen:
		if n := len(d.stack); n > 0 {
			d.base = d.stack[n-1]
			d.stack = d.stack[:n-1]
		}
		d.pending = 0
	case t.Type == tokMinus || t.Type == tokKeyword && t.Value == "NOT":
		d.pending++
	default:
		d.pending = 0
		return nil
	}
	if d.base+d.pending > MaxDepth {
		return errorAt(column(t), "query nested too deeply at column %d: at most %d levels of parentheses and negations", column(t), MaxDepth)
	}
	return nil
}
