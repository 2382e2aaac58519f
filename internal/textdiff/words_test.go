package textdiff

import (
	"strings"
	"testing"
)

func TestWords(t *testing.T) {
	for _, tt := range []struct {
		old, new string
		want     string // deleted parts in [-…-], inserted in {+…+}
	}{
		{"the quick fox", "the quick fox", "the quick fox"},
		{"the quick fox", "the slow fox", "the [-quick-]{+slow+} fox"},
		{"a, b", "a; b", "a[-,-]{+;+} b"},
		{"", "new words", "{+new words+}"},
		{"old words", "", "[-old words-]"},
		{"zeppelin_2 über", "zeppelin_3 über", "[-zeppelin_2-]{+zeppelin_3+} über"},
	} {
		var b strings.Builder
		var old, new strings.Builder
		for _, p := range Words(tt.old, tt.new) {
			switch p.Op {
			case WordEqual:
				b.WriteString(p.Text)
				old.WriteString(p.Text)
				new.WriteString(p.Text)
			case WordDeleted:
				b.WriteString("[-" + p.Text + "-]")
				old.WriteString(p.Text)
			case WordInserted:
				b.WriteString("{+" + p.Text + "+}")
				new.WriteString(p.Text)
			}
		}
		if b.String() != tt.want {
			t.Errorf("Words(%q, %q) = %s, want %s", tt.old, tt.new, b.String(), tt.want)
		}
		if old.String() != tt.old || new.String() != tt.new {
			t.Errorf("Words(%q, %q) gives back %q and %q", tt.old, tt.new, old.String(), new.String())
		}
	}
}
