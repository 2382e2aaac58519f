package grammar

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestParse_Errors checks every class of error, its exact words and its
// column.
func TestParse_Errors(t *testing.T) {
	deepParens := strings.Repeat("(", MaxDepth+1) + "a" + strings.Repeat(")", MaxDepth+1)
	deepNots := strings.Repeat("NOT ", MaxDepth+1) + "a"
	tests := []struct {
		name   string
		input  string
		column int
		msg    string
	}{
		// Limits and encoding.
		{"too long", strings.Repeat("a ", MaxLength/2) + "b", MaxLength + 1, "query too long: 2001 bytes, at most 2000"},
		{"invalid UTF-8", "abc \xff", 5, "invalid UTF-8 at column 5"},
		{"too deep parentheses", deepParens, MaxDepth + 1, "query nested too deeply at column 33: at most 32 levels of parentheses and negations"},
		{"too deep negations", deepNots, 4*MaxDepth + 1, "query nested too deeply at column 129: at most 32 levels of parentheses and negations"},
		{"too deep mixed", strings.Repeat("-(", MaxDepth/2) + "-a" + strings.Repeat(")", MaxDepth/2), MaxDepth + 1, "query nested too deeply at column 33: at most 32 levels of parentheses and negations"},

		// Quotes.
		{"unterminated quote", `a "bc`, 3, `unterminated quote: '"' at column 3 is never closed`},
		{"unterminated after escape", `"bc\"`, 1, `unterminated quote: '"' at column 1 is never closed`},
		{"unterminated field value", `tag:"x y`, 5, `unterminated quote: '"' at column 5 is never closed`},
		{"empty quotes", `a ""`, 3, "empty quotes at column 3: put the words to search for between them"},
		{"blank quotes", `"  "`, 1, "empty quotes at column 1: put the words to search for between them"},

		// Field values.
		{"empty value", "a:", 1, "empty value for field a at column 1"},
		{"empty tag", "x tag: y", 3, "empty value for field tag at column 3"},
		{"empty quoted value", `status:""`, 1, "empty value for field status at column 1"},
		{"empty value before paren", "(tag:)", 2, "empty value for field tag at column 2"},
		{"lone star", "a *", 3, "nothing before '*' at column 3: a prefix search needs a word before the *, as in meet*"},
		{"star value", "tag:**", 5, "nothing before '*' at column 5: a prefix search needs a word before the *, as in meet*"},
		{"bad glob", "path:a/[b", 6, `bad glob "a/[b" for path at column 6: check its [ ] brackets and \ escapes`},

		// Dates.
		{"bad month", "modified:2024-13", 10, `bad date "2024-13" for modified at column 10: expected YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] or RFC 3339`},
		{"bad day", "created:2024-02-30", 9, `bad date "2024-02-30" for created at column 9: expected YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] or RFC 3339`},
		{"short month", "created:2024-6", 9, `bad date "2024-6" for created at column 9: expected YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] or RFC 3339`},
		{"word date", "modified:yesterday", 10, `bad date "yesterday" for modified at column 10: expected YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] or RFC 3339`},
		{"bad time", "modified:2024-06-01T25:00:00Z", 10, `bad date "2024-06-01T25:00:00Z" for modified at column 10: expected YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] or RFC 3339`},
		{"bad date after op", "modified:>=2024-00", 12, `bad date "2024-00" for modified at column 12: expected YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] or RFC 3339`},
		{"bad range end", "modified:2024..2024-13", 16, `bad date "2024-13" for modified at column 16: expected YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] or RFC 3339`},
		{"bad quoted date", `modified:"2024-13"`, 11, `bad date "2024-13" for modified at column 11: expected YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] or RFC 3339`},
		{"op inside range", "modified:>2024..2025", 11, `bad date "2024..2025" for modified at column 11: expected YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] or RFC 3339`},
		{"missing date", "modified:>=", 12, "missing date for modified at column 12: expected YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] or RFC 3339"},
		{"open range", "created:..", 9, `date range ".." for created at column 9 needs a start, an end or both, as in 2024-01..2024-03`},
		{"empty range", "modified:2024-06..2024-01", 10, `empty date range "2024-06..2024-01" for modified at column 10: the start is after the end`},
		{"old year", "created:0999", 9, `date "0999" for created at column 9 is out of range: years run from 1000 to 9999`},

		// A '-' apart from its term.
		{"minus then space", "a - b", 3, "dangling operator '-' at column 3: expected a term right after it, with no space"},
		{"minus at end", "a -", 3, "dangling operator '-' at column 3: expected a term right after it, with no space"},
		{"minus before paren", "(a -)", 4, "dangling operator '-' at column 4: expected a term after it"},
		{"minus before operator", "a -OR b", 3, "dangling operator '-' at column 3: expected a term after it"},

		// Parentheses.
		{"never closed", "a b (c", 5, "unbalanced parenthesis: '(' at column 5 is never closed"},
		{"inner never closed", "(a (b)", 1, "unbalanced parenthesis: '(' at column 1 is never closed"},
		{"innermost never closed", "(a (b", 4, "unbalanced parenthesis: '(' at column 4 is never closed"},
		{"unexpected close", "(a b) c )", 9, "unexpected ')' at column 9"},
		{"close first", ") a", 1, "unexpected ')' at column 1"},
		{"close before open", "a) (b", 2, "unexpected ')' at column 2"},
		{"empty parentheses", "a () b", 3, "empty parentheses at column 3: put a term between them"},

		// Operators.
		{"dangling OR", "a OR", 3, "dangling operator OR at column 3: expected a term after it"},
		{"dangling AND", "a AND", 3, "dangling operator AND at column 3: expected a term after it"},
		{"dangling NOT", "a NOT", 3, "dangling operator NOT at column 3: expected a term after it"},
		{"NOT alone", "NOT", 1, "dangling operator NOT at column 1: expected a term after it"},
		{"OR OR", "a OR OR b", 3, "dangling operator OR at column 3: expected a term after it"},
		{"AND OR", "a AND OR b", 3, "dangling operator AND at column 3: expected a term after it"},
		{"NOT OR", "NOT OR b", 1, "dangling operator NOT at column 1: expected a term after it"},
		{"OR before close", "(a OR) b", 4, "dangling operator OR at column 4: expected a term after it"},
		{"OR first", "OR a", 1, "operator OR at column 1: expected a term before it"},
		{"AND alone", "AND", 1, "operator AND at column 1: expected a term before it"},
		{"AND after open", "a (AND b)", 4, "operator AND at column 4: expected a term before it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := Parse(tt.input, time.UTC)
			if err == nil {
				t.Fatalf("Parse(%q) = %s, want an error", tt.input, q)
			}
			var perr *Error
			if !errors.As(err, &perr) {
				t.Fatalf("Parse(%q) error %T %v, want *Error", tt.input, err, err)
			}
			if perr.Column != tt.column || perr.Msg != tt.msg {
				t.Errorf("Parse(%q):\n got column %d %q\nwant column %d %q", tt.input, perr.Column, perr.Msg, tt.column, tt.msg)
			}
			checkError(t, tt.input, perr)
		})
	}
}

// TestParse_Limits checks that queries right at the limits parse.
func TestParse_Limits(t *testing.T) {
	tests := []struct {
		name  string
		input string
	}{
		{"longest", strings.Repeat("a ", MaxLength/2-1) + "bc"},
		{"deepest parentheses", strings.Repeat("(", MaxDepth) + "a" + strings.Repeat(")", MaxDepth)},
		{"deepest negations", strings.Repeat("-", MaxDepth) + "a"},
		{"many terms", strings.Repeat("a OR ", MaxLength/5-1) + "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if len(tt.input) > MaxLength {
				t.Fatalf("test input is %d bytes, longer than MaxLength", len(tt.input))
			}
			mustParse(t, tt.input, nil)
		})
	}
}

// checkError checks what every error must satisfy: a column inside the
// input (or just past its end), named in the message, and none of
// participle's own words.
func checkError(tb testing.TB, input string, e *Error) {
	tb.Helper()
	if e.Column < 1 || e.Column > len(input)+1 {
		tb.Errorf("Parse(%q): column %d outside [1, %d]", input, e.Column, len(input)+1)
	}
	if !strings.Contains(e.Msg, fmt.Sprintf("column %d", e.Column)) && !strings.HasPrefix(e.Msg, "query too long") {
		tb.Errorf("Parse(%q): message %q does not name column %d", input, e.Msg, e.Column)
	}
	for _, jargon := range []string{"<EOF>", "unexpected token", "expected \"", "syntax error", "internal error", "lexer"} {
		if strings.Contains(e.Msg, jargon) {
			tb.Errorf("Parse(%q): message %q contains %q", input, e.Msg, jargon)
		}
	}
	if e.Error() != e.Msg {
		tb.Errorf("Error() = %q, want Msg %q", e.Error(), e.Msg)
	}
}
