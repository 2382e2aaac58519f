package textdiff

import (
	"bytes"
	"strings"
	"testing"
)

var fuzzSeeds = [][2]string{
	{"", ""},
	{"a\nb\nc\n", "a\nB\nc\n"},
	{"a\nb", "a\nb\n"},
	{"a\r\nb\r\n", "a\nb\r\n"},
	{"\xff\xfe\n\x00\n", "\xff\n\x00\x01"},
	{numbered(30), replaceLine(replaceLine(numbered(30), 3, "x\n"), 25, "")},
	{"--- a\n+++ b\n@@ -1 +1 @@\n", "-- a\n++ b\n\\ No newline at end of file\n"},
}

// FuzzUnified checks that Unified never panics and that its hunks, applied
// strictly, turn Old into New for a modified, a created and a deleted file.
func FuzzUnified(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add([]byte(s[0]), []byte(s[1]), uint8(i))
	}
	f.Fuzz(func(t *testing.T, old, new []byte, ctx uint8) {
		c := int(ctx % 8)
		patch := Unified([]FileDiff{{"n.md", "n.md", old, new}}, c)
		if bytes.Equal(old, new) != (patch == "") {
			t.Fatalf("Unified(%q, %q) = %q", old, new, patch)
		}
		got, err := applyUnified(old, patch)
		if err != nil || !bytes.Equal(got, new) {
			t.Fatalf("applying Unified(%q, %q) = %q, %v\npatch:\n%s", old, new, got, err, patch)
		}
		st := Count(old, new)
		if d := len(splitLines(string(new))) - len(splitLines(string(old))); st.Additions-st.Deletions != d {
			t.Errorf("Count(%q, %q) = %+v, but the line count changes by %d", old, new, st, d)
		}
		if plus, minus := countHunkLines(patch); plus != st.Additions || minus != st.Deletions {
			t.Errorf("patch has +%d -%d lines, Count says %+v", plus, minus, st)
		}
		created := Unified([]FileDiff{{"", "n.md", old, new}}, c)
		if got, err := applyUnified(nil, created); err != nil || !bytes.Equal(got, new) {
			t.Fatalf("applying the creation %q = %q, %v", created, got, err)
		}
		deleted := Unified([]FileDiff{{"n.md", "", old, new}}, c)
		if got, err := applyUnified(old, deleted); err != nil || len(got) != 0 {
			t.Fatalf("applying the deletion %q = %q, %v", deleted, got, err)
		}
		Assess([]FileDiff{{"n.md", "n.md", old, new}})
	})
}

// countHunkLines counts the added and deleted lines of a one-file patch.
func countHunkLines(patch string) (plus, minus int) {
	inHunk := false
	for _, l := range splitLines(patch) {
		switch {
		case strings.HasPrefix(l, "@@ "):
			inHunk = true
		case !inHunk:
		case l[0] == '+':
			plus++
		case l[0] == '-':
			minus++
		}
	}
	return plus, minus
}

// FuzzMerge3 checks that Merge3 never panics, that merging with one side
// unchanged gives the other side, that swapping the sides changes nothing,
// and that conflicts quote the texts they point at.
func FuzzMerge3(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add([]byte(s[0]), []byte(s[1]), []byte(fuzzSeeds[(i+1)%len(fuzzSeeds)][1]))
	}
	f.Fuzz(func(t *testing.T, base, ours, theirs []byte) {
		for _, c := range []struct {
			name         string
			ours, theirs []byte
			want         []byte
		}{
			{"theirs is base", ours, base, ours},
			{"ours is base", base, theirs, theirs},
			{"both equal", ours, ours, ours},
		} {
			got, conflicts, err := Merge3(base, c.ours, c.theirs)
			if err != nil || !bytes.Equal(got, c.want) {
				t.Fatalf("%s: Merge3 = %q, %+v, %v; want %q", c.name, got, conflicts, err, c.want)
			}
		}
		got, conflicts, err := Merge3(base, ours, theirs)
		swapped, swappedConflicts, swappedErr := Merge3(base, theirs, ours)
		if (err == nil) != (swappedErr == nil) || !bytes.Equal(got, swapped) || len(conflicts) != len(swappedConflicts) {
			t.Fatalf("Merge3 = %q, %v; with sides swapped %q, %v", got, err, swapped, swappedErr)
		}
		if (err != nil) != (len(conflicts) > 0) || (err != nil) != (got == nil) {
			t.Fatalf("Merge3 = %q, %+v, %v", got, conflicts, err)
		}
		for _, c := range conflicts {
			checkSpan(t, "base", base, c.Base)
			checkSpan(t, "ours", ours, c.Ours)
			checkSpan(t, "theirs", theirs, c.Theirs)
		}
	})
}

func checkSpan(tb testing.TB, side string, text []byte, s Span) {
	tb.Helper()
	lines := splitLines(string(text))
	if s.Start < 1 || s.Count < 0 || s.Start-1+s.Count > len(lines) {
		tb.Fatalf("%s span %+v outside %d lines", side, s, len(lines))
	}
	if want := strings.Join(lines[s.Start-1:s.Start-1+s.Count], ""); string(s.Text) != want {
		tb.Fatalf("%s span %+v, want text %q", side, s, want)
	}
}
