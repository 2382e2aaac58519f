package grammar

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/alecthomas/participle/v2/lexer"
)

// TestDiagnose_AgreesWithGrammar runs every sequence of up to five tokens
// from {a ( ) AND OR NOT -} through the participle grammar and through
// diagnose: diagnose must find a problem exactly when participle rejects
// the tokens, so that no participle error ever reaches the user untranslated.
func TestDiagnose_AgreesWithGrammar(t *testing.T) {
	alphabet := []string{"a", "(", ")", "AND", "OR", "NOT", "-"}
	// Five tokens is 19,608 sequences. The check is single-threaded, so
	// the race detector adds only time: four tokens (2,801) is enough there.
	maxLen := 5
	if testing.Short() || raceEnabled {
		maxLen = 4
	}
	checked := 0
	var seq []string
	var walk func()
	walk = func() {
		input := joinTokens(seq)
		s, err := scan(input, time.UTC)
		if err == nil {
			checked++
			peek, err := lexer.Upgrade(&tokenList{tokens: s.tokens})
			if err != nil {
				t.Fatal(err)
			}
			_, perr := parser.ParseFromLexer(peek)
			d := diagnose(s.tokens)
			switch {
			case perr != nil && d == nil:
				t.Errorf("%q: participle rejects it (%v), diagnose finds nothing", input, perr)
			case perr == nil && d != nil:
				t.Errorf("%q: participle accepts it, diagnose says %q", input, d.Msg)
			case d != nil:
				checkError(t, input, d)
			}
		} else {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%q: scan error %T, want *Error", input, err)
			}
			checkError(t, input, e)
		}
		if len(seq) == maxLen {
			return
		}
		for _, tok := range alphabet {
			seq = append(seq, tok)
			walk()
			seq = seq[:len(seq)-1]
		}
	}
	walk()
	if checked == 0 {
		t.Fatal("no sequence got past scan")
	}
}

// joinTokens writes tokens with a space between them, except right after a
// '-', which must touch what it excludes.
func joinTokens(tokens []string) string {
	var b strings.Builder
	for i, tok := range tokens {
		if i > 0 && tokens[i-1] != "-" {
			b.WriteByte(' ')
		}
		b.WriteString(tok)
	}
	return b.String()
}
