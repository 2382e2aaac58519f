package grammar

import (
	"path"
	"strings"
	"time"

	"github.com/alecthomas/participle/v2/lexer"
)

// newTerm returns the term of a word, phrase or field token, reading dates
// in loc.
func newTerm(t lexer.Token, loc *time.Location) (*Term, error) {
	switch t.Type {
	case tokString:
		return phraseTerm(t.Value, column(t))
	case tokField:
		return fieldTerm(t.Value, column(t), loc)
	default:
		return wordTerm(t.Value, column(t))
	}
}

// wordTerm returns the free-text term of a word token at column col. A
// trailing '*' marks a prefix search.
func wordTerm(word string, col int) (*Term, error) {
	value, prefix, err := trimPrefix(word, col)
	if err != nil {
		return nil, err
	}
	return &Term{Value: value, Prefix: prefix, Pos: col}, nil
}

// phraseTerm returns the free-text term of a quoted token at column col.
func phraseTerm(token string, col int) (*Term, error) {
	value, err := unquote(token, col)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(value) == "" {
		return nil, errorAt(col, "empty quotes at column %d: put the words to search for between them", col)
	}
	return &Term{Value: value, Phrase: true, Pos: col}, nil
}

// fieldTerm returns the term of a "key:value" token at column col. A token
// whose value starts with "//" is a URL, and so a word. Dates are read in
// loc.
func fieldTerm(token string, col int, loc *time.Location) (*Term, error) {
	key, value, _ := strings.Cut(token, ":")
	if strings.HasPrefix(value, "//") {
		return wordTerm(token, col)
	}
	field := strings.ToLower(key)
	valueCol := col + len(key) + 1
	term := &Term{Field: field, Value: value, Pos: col}
	if strings.HasPrefix(value, `"`) {
		v, err := unquote(value, valueCol)
		if err != nil {
			return nil, err
		}
		term.Value, term.Phrase = v, true
		valueCol++
	}
	if strings.TrimSpace(term.Value) == "" {
		return nil, errorAt(col, "empty value for field %s at column %d", field, col)
	}
	switch field {
	case FieldCreated, FieldModified:
		r, err := parseDateRange(field, term.Value, valueCol, loc)
		if err != nil {
			return nil, err
		}
		term.Date, term.Phrase = r, false
	case FieldPath:
		if _, err := path.Match(term.Value, ""); err != nil {
			return nil, errorAt(valueCol, "bad glob %q for path at column %d: check its [ ] brackets and \\ escapes", term.Value, valueCol)
		}
	default:
		if !term.Phrase {
			v, prefix, err := trimPrefix(term.Value, valueCol)
			if err != nil {
				return nil, err
			}
			term.Value, term.Prefix = v, prefix
		}
	}
	return term, nil
}

// trimPrefix removes the trailing '*'s of a value and reports whether there
// were any. A value of only '*'s is an *Error at column col.
func trimPrefix(value string, col int) (string, bool, error) {
	trimmed := strings.TrimRight(value, "*")
	if trimmed == "" {
		return "", false, errorAt(col, "nothing before '*' at column %d: a prefix search needs a word before the *, as in meet*", col)
	}
	return trimmed, len(trimmed) < len(value), nil
}

// unquote returns the text between the quotes of token, which starts at
// column col. Only \" and \\ are escapes; any other backslash stands for
// itself. A token without its closing quote is an *Error.
func unquote(token string, col int) (string, error) {
	var b strings.Builder
	for i := 1; i < len(token); i++ {
		c := token[i]
		switch {
		case c == '\\' && i+1 < len(token) && (token[i+1] == '"' || token[i+1] == '\\'):
			i++
			b.WriteByte(token[i])
		case c == '"':
			return b.String(), nil
		default:
			b.WriteByte(c)
		}
	}
	return "", errorAt(col, "unterminated quote: '\"' at column %d is never closed", col)
}

// quote returns s between double quotes, escaping what unquote would
// otherwise misread: every '"', and every '\' that comes before a '"', a
// '\' or the closing quote. Other backslashes stay as they are, so the
// result is never longer than the quoted text it came from.
func quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '"':
			b.WriteByte('\\')
		case s[i] == '\\' && (i+1 == len(s) || s[i+1] == '"' || s[i+1] == '\\'):
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
	return b.String()
}
