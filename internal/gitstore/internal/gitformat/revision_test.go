package gitformat

import "testing"

func TestSplitRevision(t *testing.T) {
	for _, tc := range []struct{ rev, base, ops string }{
		{"main", "main", ""},
		{"main~2^", "main", "~2^"},
		{"HEAD^2~", "HEAD", "^2~"},
		{"~1", "", "~1"},
	} {
		if base, ops := SplitRevision(tc.rev); base != tc.base || ops != tc.ops {
			t.Errorf("SplitRevision(%q) = %q, %q", tc.rev, base, ops)
		}
	}
}

func TestParseCount(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		rest string
		ok   bool
	}{
		{"", 1, "", true},
		{"2", 2, "", true},
		{"12^", 12, "^", true},
		{"~", 1, "~", true},
		{"{u}", 0, "", false},
		{"99999999", 0, "", false},
	} {
		n, rest, err := ParseCount(tc.s, '~')
		if n != tc.n || rest != tc.rest || (err == nil) != tc.ok {
			t.Errorf("ParseCount(%q) = %d, %q, %v", tc.s, n, rest, err)
		}
	}
}

func TestIsShortHex(t *testing.T) {
	for s, want := range map[string]bool{"abc": false, "abcd": true, "ABCD12": true, "abcg": false,
		"ce013625030ba8dba906f756967f9e9ca394464a": true, "ce013625030ba8dba906f756967f9e9ca394464a0": false} {
		if got := IsShortHex(s); got != want {
			t.Errorf("IsShortHex(%q) = %v", s, got)
		}
	}
}

func TestParseBool(t *testing.T) {
	for _, tc := range []struct {
		v        string
		def, out bool
	}{
		{"true", false, true}, {"Yes", false, true}, {" on ", false, true}, {"1", false, true},
		{"false", true, false}, {"NO", true, false}, {"off", true, false}, {"0", true, false},
		{"", true, true}, {"maybe", false, false},
	} {
		if got := ParseBool(tc.v, tc.def); got != tc.out {
			t.Errorf("ParseBool(%q, %v) = %v", tc.v, tc.def, got)
		}
	}
}
