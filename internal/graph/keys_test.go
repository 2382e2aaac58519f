package graph

import "testing"

// TestPathHas matches paths against lowercased keys as a table by every
// trailing part of the lowercased path did, for ASCII and other paths.
func TestPathHas(t *testing.T) {
	for _, c := range []struct {
		path, key string
		suffix    bool
	}{
		{"A/B/Note", "a/b/note", false}, {"A/B/Note", "b/note", true}, {"A/B/Note", "note", true},
		{"A/B/Note", "b/note", false}, {"A/BB/Note", "b/note", true}, {"xnote", "note", true},
		{"Note", "note", false}, {"Note", "note", true}, {"Note", "notes", true}, {"", "a", true},
		{"Ünïcode/Straße", "straße", true}, {"ÄB/Ç", "äb/ç", false}, {"ÄB/Ç", "b/ç", true},
		{"a/İx", "i̇x", true}, {"a/KELVIN", "kelvin", true}, {"A/Kelvin", "a/kelvin", false},
	} {
		want := false
		for i, k := range suffixes(c.path) {
			if k == c.key && (i == 0 || c.suffix) {
				want = true
			}
		}
		if got := pathHas(c.path, c.key, c.suffix); got != want {
			t.Errorf("pathHas(%q, %q, %v) = %v, want %v", c.path, c.key, c.suffix, got, want)
		}
		if b := baseKey(c.path); b != suffixes(c.path)[len(suffixes(c.path))-1] {
			t.Errorf("baseKey(%q) = %q", c.path, b)
		}
	}
}
