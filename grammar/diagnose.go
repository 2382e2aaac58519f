package grammar

import "github.com/alecthomas/participle/v2/lexer"

// diagnose finds the first structural problem in tokens (as scan returns
// them, ending in EOF) and returns it as an *Error, or nil if there is
// none. It explains, in plain words, every query that the participle
// grammar rejects once scan has accepted its tokens:
//
//   - a ')' without a '(' before it, or right after one;
//   - AND or OR with no term before it;
//   - AND, OR, NOT or '-' with no term after it;
//   - a '(' that is never closed.
func diagnose(tokens []lexer.Token) *Error {
	var open []lexer.Token // unclosed '(' tokens
	var prev *lexer.Token  // nil at the start of the query
	for i := range tokens {
		t := tokens[i]
		needsTermBefore := t.Type == tokRParen || t.EOF() || isBinary(t)
		if needsTermBefore && prev != nil && isOperator(*prev) {
			return dangling(*prev)
		}
		switch {
		case t.Type == tokRParen:
			if prev != nil && prev.Type == tokLParen {
				return errorAt(column(*prev), "empty parentheses at column %d: put a term between them", column(*prev))
			}
			if len(open) == 0 {
				return errorAt(column(t), "unexpected ')' at column %d", column(t))
			}
			open = open[:len(open)-1]
		case t.Type == tokLParen:
			open = append(open, t)
		case isBinary(t):
			if prev == nil || prev.Type == tokLParen {
				return errorAt(column(t), "operator %s at column %d: expected a term before it", t.Value, column(t))
			}
		case t.EOF():
			if n := len(open); n > 0 {
				return errorAt(column(open[n-1]), "unbalanced parenthesis: '(' at column %d is never closed", column(open[n-1]))
			}
		}
		prev = &tokens[i]
	}
	return nil
}

// dangling returns the error for an operator with no term after it.
func dangling(op lexer.Token) *Error {
	name := op.Value
	if op.Type == tokMinus {
		name = "'-'"
	}
	return errorAt(column(op), "dangling operator %s at column %d: expected a term after it", name, column(op))
}

// isBinary reports whether a token is AND or OR.
func isBinary(t lexer.Token) bool {
	return t.Type == tokKeyword && t.Value != "NOT"
}
