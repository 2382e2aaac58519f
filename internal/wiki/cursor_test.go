package wiki

import (
	"errors"
	"strings"
	"testing"
)

func TestCursorScope(t *testing.T) {
	alpha := cursorScope{"search", "alpha", []string{}, "", "", "", "relevance"}
	beta := cursorScope{"search", "beta", []string{}, "", "", "", "relevance"}
	t.Run("round trip", func(t *testing.T) {
		c := alpha.seal("eyJwb3MiOjF9")
		pos, err := alpha.open(c)
		if err != nil || pos != "eyJwb3MiOjF9" {
			t.Errorf("open(%q) = %q, %v", c, pos, err)
		}
	})
	t.Run("no cursor", func(t *testing.T) {
		if c := alpha.seal(""); c != "" {
			t.Errorf("seal of no position %q", c)
		}
		if pos, err := alpha.open(""); pos != "" || err != nil {
			t.Errorf("open of no cursor %q, %v", pos, err)
		}
	})
	t.Run("refused", func(t *testing.T) {
		for name, c := range map[string]string{
			"another scope": beta.seal("eyJwb3MiOjF9"),
			"no tag":        "eyJwb3MiOjF9",
			"no position":   "." + alpha.tag(),
			"changed tag":   alpha.seal("eyJwb3MiOjF9") + "x",
		} {
			_, err := alpha.open(c)
			var e *Error
			if !errors.As(err, &e) || e.Code != CodeInvalidParams || !strings.Contains(Words(nil).Say(e.Hint), "without cursor") {
				t.Errorf("%s: %v", name, err)
			}
		}
	})
}
