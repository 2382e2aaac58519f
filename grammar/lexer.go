package grammar

import (
	"github.com/alecthomas/participle/v2/lexer"
)

// quoted matches a double-quoted string, closed or not: an unterminated
// quote is reported by scan with a clear message rather than failing to
// lex. A backslash always travels with the character after it.
const quoted = `"(?:[^"\\]|\\[\s\S])*(?:"|\\)?`

// queryLexer splits a query into tokens. The rules are tried in order, so a
// '-' starts a token only where a token can start (it is part of a word
// anywhere else), and a word that begins like "key:" is a Field. Every input
// lexes: a word is anything up to white space, a parenthesis or a quote.
//
// Keyword never matches: scan turns the words AND, OR and NOT into Keyword
// tokens, because Go regular expressions cannot look ahead to check that a
// word ends after "AND".
var queryLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Space", Pattern: `\s+`},
	{Name: "String", Pattern: quoted},
	{Name: "LParen", Pattern: `\(`},
	{Name: "RParen", Pattern: `\)`},
	{Name: "Minus", Pattern: `-`},
	{Name: "Field", Pattern: `[A-Za-z][A-Za-z0-9_-]*:(?:` + quoted + `|[^\s()"]*)`},
	{Name: "Word", Pattern: `[^\s()"]+`},
	{Name: "Keyword", Pattern: `[^\x00-\x{10FFFF}]`},
})

// Token types of queryLexer.
var (
	tokSpace   = symbol("Space")
	tokString  = symbol("String")
	tokLParen  = symbol("LParen")
	tokRParen  = symbol("RParen")
	tokMinus   = symbol("Minus")
	tokField   = symbol("Field")
	tokWord    = symbol("Word")
	tokKeyword = symbol("Keyword")
)

func symbol(name string) lexer.TokenType {
	t, ok := queryLexer.Symbols()[name]
	if !ok {
		panic("grammar: lexer has no symbol " + name)
	}
	return t
}

// isTerm reports whether a token is a term: a word, a phrase or a field.
func isTerm(t lexer.Token) bool {
	return t.Type == tokWord || t.Type == tokString || t.Type == tokField
}

// isOperator reports whether a token must be followed by a term: AND, OR,
// NOT or '-'.
func isOperator(t lexer.Token) bool {
	return t.Type == tokKeyword || t.Type == tokMinus
}

// column returns the 1-based byte column of a token.
func column(t lexer.Token) int { return t.Pos.Offset + 1 }

// describe names a token for an error message.
func describe(t lexer.Token) string {
	switch {
	case t.EOF():
		return "end of query"
	case t.Type == tokKeyword:
		return t.Value
	default:
		return "'" + t.Value + "'"
	}
}

// tokenList is a lexer.Lexer over tokens that scan already read, so that
// participle parses them without lexing the input a second time.
type tokenList struct {
	tokens []lexer.Token
	next   int
}

// Next returns the next token, and the final EOF token forever after.
func (l *tokenList) Next() (lexer.Token, error) {
	t := l.tokens[l.next]
	if l.next < len(l.tokens)-1 {
		l.next++
	}
	return t, nil
}
