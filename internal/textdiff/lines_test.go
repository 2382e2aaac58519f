package textdiff

import (
	"math/rand"
	"slices"
	"testing"
)

func TestSplitLines(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"\n", []string{"\n"}},
		{"a", []string{"a"}},
		{"a\nb", []string{"a\n", "b"}},
		{"a\r\nb\r\n", []string{"a\r\n", "b\r\n"}},
		{"\n\n", []string{"\n", "\n"}},
		{"a\rb", []string{"a\rb"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := splitLines(tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("splitLines(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// lcsLen is the length of a longest common subsequence, by dynamic
// programming.
func lcsLen(a, b []string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			switch {
			case a[i] == b[j]:
				cur[j+1] = prev[j] + 1
			default:
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// TestDiffLines checks on random texts over a few distinct lines, where the
// choices are many, that diffLines' changes are well formed, turn a into b,
// and are minimal.
func TestDiffLines(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	alphabet := []string{"x\n", "y\n", "\n", "z"}
	text := func() []string {
		lines := make([]string, r.Intn(25))
		for i := range lines {
			lines[i] = alphabet[r.Intn(3)]
		}
		if len(lines) > 0 && r.Intn(4) == 0 {
			lines[len(lines)-1] = alphabet[3] // a last line without newline
		}
		return lines
	}
	for i := range 3000 {
		a, b := text(), text()
		cs := diffLines(a, b)
		var got []string
		prevA, prevB := 0, 0
		for k, c := range cs {
			if c.Del+c.Ins == 0 || c.A-prevA != c.B-prevB || c.A < prevA || (k > 0 && c.A == prevA) {
				t.Fatalf("case %d: bad change %+v after (%d, %d) in %+v", i, c, prevA, prevB, cs)
			}
			got = append(got, a[prevA:c.A]...)
			got = append(got, b[c.B:c.B+c.Ins]...)
			prevA, prevB = c.A+c.Del, c.B+c.Ins
		}
		got = append(got, a[prevA:]...)
		if !slices.Equal(got, b) || len(a)-prevA != len(b)-prevB {
			t.Fatalf("case %d: changes %+v turn %q into %q, want %q", i, cs, a, got, b)
		}
		st := countChanges(cs)
		if l := lcsLen(a, b); st.Deletions != len(a)-l || st.Additions != len(b)-l {
			t.Fatalf("case %d: %q → %q: %+v is not minimal (common subsequence of %d lines)", i, a, b, st, l)
		}
	}
}
