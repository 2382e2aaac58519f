package wikierr

import (
	"strings"
	"testing"
)

func TestWords(t *testing.T) {
	w := Words{"restore": "restore_note", "overwrite": "set overwrite: true", "search": "wikid search", "resolve": "wikid search", "list": "wikid ls"}
	tests := []struct{ format, arg, want string }{
		{"restore it with {restore} (path %s)", "a", "restore it with restore_note (path a)"},
		{"{overwrite} to replace it", "", "set overwrite: true to replace it"},
		// Arguments are never references, and unknown names stay as written.
		{"no note %s", "{restore}", "no note {restore}"},
		{"{unknown} and {restore", "", "{unknown} and {restore"},
		// A reference without words is its name.
		{"see {history}", "", "see history"},
		{"100%% sure", "", "100% sure"},
		// One word for two references is said once.
		{"with {list} or find it with {search} or {resolve}", "", "with wikid ls or find it with wikid search"},
		{"{search}, {resolve} and {list}", "", "wikid search and wikid ls"},
		{"{resolve} then {search}", "", "wikid search then wikid search"},
	}
	for _, tt := range tests {
		var s string
		if tt.arg != "" {
			s = Sayf(tt.format, tt.arg)
		} else {
			s = Sayf(tt.format)
		}
		if got := w.Say(s); got != tt.want {
			t.Errorf("Say(Sayf(%q, %q)) = %q, want %q", tt.format, tt.arg, got, tt.want)
		}
	}
	e := Errorf(CodeNotFound, "see {history}").WithHint("use {restore}")
	if got := w.Say(e.Hint); got != "use restore_note" {
		t.Errorf("hint = %q", got)
	}
	if !strings.Contains(e.Error(), "history") {
		t.Errorf("Error() = %q", e.Error())
	}
}

// TestWords_Say_Parts checks optional parts: said without their marks by
// a front end that has the argument in them, left out by one that words
// it "", and never taken for a reference.
func TestWords_Say_Parts(t *testing.T) {
	format := "add text to find so that it matches %s{(, or set {expected_matches} to %d to replace every one)}"
	tests := []struct {
		name  string
		words Words
		want  string
	}{
		{"with the argument", Words{"expected_matches": "expected_matches"}, "add text to find so that it matches once, or set expected_matches to 2 to replace every one"},
		{"worded otherwise", Words{"expected_matches": "--expected-matches"}, "add text to find so that it matches once, or set --expected-matches to 2 to replace every one"},
		{"without words", nil, "add text to find so that it matches once, or set expected_matches to 2 to replace every one"},
		{"without the argument", Words{"expected_matches": ""}, "add text to find so that it matches once"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.words.Say(Sayf(format, "once", 2)); got != tt.want {
				t.Errorf("Say = %q, want %q", got, tt.want)
			}
		})
	}
	t.Run("prefix", func(t *testing.T) {
		s := Sayf("{({edits}%s: )}", "[0] (replace)") + "find text not found"
		if got := (Words{"edits": "edits"}).Say(s); got != "edits[0] (replace): find text not found" {
			t.Errorf("with edits: %q", got)
		}
		if got := (Words{"edits": ""}).Say(s); got != "find text not found" {
			t.Errorf("without edits: %q", got)
		}
	})
	t.Run("plain parentheses", func(t *testing.T) {
		// Outside a part, ")}" stays as written, and so does "{(" that
		// no ")}" closes.
		if got := Words(nil).Say(Sayf("f(x)} and {(y)")); got != "f(x)} and {(y)" {
			t.Errorf("Say = %q", got)
		}
	})
}
