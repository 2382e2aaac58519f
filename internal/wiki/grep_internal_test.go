package wiki

import (
	"regexp"
	"testing"
)

// FuzzGrepPrefilter checks that the literal prefilter of a regular
// expression grep never turns a match away, ignoring case or not.
func FuzzGrepPrefilter(f *testing.F) {
	for _, s := range [][2]string{
		{`cache\s+lock`, "Cache  LOCK"},
		{`(?:ab)+c`, "xababc"},
		{`foo(bar|baz)`, "FOOBAZ"},
		{`k{2}`, "\u212A\u212A"},
		{`star`, "ſtar"},
		{`a.b`, "A\nB"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, expr, line string) {
		for _, prefix := range []string{"", "(?i)"} {
			re, err := regexp.Compile(prefix + expr)
			if err != nil {
				return
			}
			match := asciiPrefilter(requiredLiterals(prefix+expr), re.Match)
			if got, want := match([]byte(line)), re.MatchString(line); got != want {
				t.Fatalf("%s%s on %q: prefiltered %v, regexp %v", prefix, expr, line, got, want)
			}
		}
	})
}

func TestRequiredLiterals(t *testing.T) {
	tests := map[string][]string{
		`foo`:         {"foo"},
		`foo\s+bar`:   {"foo", "bar"},
		`(foo)+x?`:    {"foo"},
		`(?:ab){2,3}`: {"ab"},
		`(ab)*`:       nil,
		`foo|bar`:     nil,
		`^TODO\(`:     {"TODO("},
		`[ab]c`:       {"c"},
	}
	for expr, want := range tests {
		got := requiredLiterals(expr)
		if len(got) != len(want) {
			t.Errorf("requiredLiterals(%q) = %q, want %q", expr, got, want)
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("requiredLiterals(%q) = %q, want %q", expr, got, want)
			}
		}
	}
}
