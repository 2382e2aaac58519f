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
