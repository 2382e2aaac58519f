package grammar

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// FuzzParse checks that Parse never panics or hangs, that every error is an
// *Error with a column inside the input (or just past its end), and that
// every accepted query lists its terms in tree order and its String parses
// back to the same tree.
func FuzzParse(f *testing.F) {
	for _, ex := range examples {
		f.Add(ex.query)
	}
	for _, seed := range []string{
		"", "(", ")", `"`, `\`, "-", "*", ":", "a:", ":x", "a OR", "OR a", "()", "NOT",
		`"a\"`, `tag:"x`, "modified:2024-13", "modified:..", "created:2024..2023",
		"path:[", "https://x.y/z", "12:30", "a\xffb", strings.Repeat("(", 40) + "a",
		strings.Repeat("-", 40) + "a", strings.Repeat("a ", 1001), `a"b"c`, "é:1 Ünïcode:x",
	} {
		f.Add(seed)
	}
	loc := time.FixedZone("+05:30", 5*3600+1800)
	f.Fuzz(func(t *testing.T, input string) {
		type result struct {
			q   *Query
			err error
		}
		done := make(chan result, 1)
		go func() {
			q, err := Parse(input, loc)
			done <- result{q, err}
		}()
		var r result
		select {
		case r = <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("Parse(%q) did not return within 5s", input)
		}
		if r.err != nil {
			var e *Error
			if !errors.As(r.err, &e) {
				t.Fatalf("Parse(%q) error %T %v, want *Error", input, r.err, r.err)
			}
			checkError(t, input, e)
			return
		}
		checkTerms(t, r.q)
		if len(r.q.String()) > MaxLength {
			// Terms that touched (a"b") gain a space each; past
			// MaxLength the canonical form is too long to parse again.
			return
		}
		checkRoundTrip(t, r.q, loc)
	})
}
