package note

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wikid/wikid/internal/wikierr"
)

func FuzzApplyEdits(f *testing.F) {
	for _, s := range []struct {
		src, content, find, section string
		op                          uint8
	}{
		{base, "- x", "", "Tasks", 3},
		{base, "y", "- a", "", 2},
		{crlf(base), "a\nb", "", "Done", 5},
		{"---\ntitle: t\n---\n# A\ntext", "---\nz", "", "A", 8},
		{"Title\n===\n\nSub\n---\n", "x", "", "Sub", 6},
		{"intro\n## A\na\nFoo\n---\n", "", "", "A", 8},
		{"\ufeff# A\ntext\n", "---\nx", "", "", 1},
		{"\ufeff---\ntitle: t\n---\n", "x", "", "", 0},
	} {
		f.Add(s.src, s.op, s.content, s.find, s.section, 0, false)
	}
	f.Fuzz(func(t *testing.T, src string, op uint8, content, find, section string, expected int, twice bool) {
		name := "bogus"
		if i := int(op) % (len(ops) + 1); i < len(ops) {
			name = ops[i]
		}
		edits := []Edit{{Op: name, Content: content, Find: find, Section: section, ExpectedMatches: expected % 4}}
		if twice {
			edits = append(edits, edits[0])
		}
		in := []byte(src)
		out, err := ApplyEdits(in, edits)
		if string(in) != src {
			t.Fatalf("ApplyEdits changed its input")
		}
		if err != nil {
			if !bytes.Equal(out, in) {
				t.Fatalf("ApplyEdits failed (%v) but returned %q", err, out)
			}
			switch wikierr.CodeOf(err) {
			case wikierr.CodeInvalidParams, wikierr.CodeNotFound, wikierr.CodeAmbiguous:
			default:
				t.Fatalf("ApplyEdits: unexpected error %v", err)
			}
			return
		}
		if utf8.ValidString(src) && utf8.ValidString(content) && utf8.ValidString(find) && !utf8.Valid(out) {
			t.Fatalf("valid UTF-8 in, invalid out: %q", out)
		}
		if twice {
			return
		}
		switch name {
		case OpAppend, OpPrepend, OpAppendSection, OpPrependSection, OpInsertBefore, OpInsertAfter:
			// An insertion: the note's bytes are all still there, in
			// one piece before and one after the new lines.
			p := commonPrefix(in, out)
			s := commonPrefix(reversed(in[p:]), reversed(out[p:]))
			if p+s != len(in) {
				t.Fatalf("insertion changed the note: %q -> %q", src, out)
			}
			added := string(out[p : len(out)-s])
			if want := withLineEnding(content, lineEnding(in)); !strings.Contains(string(out), strings.TrimSuffix(want, lineEnding(in))) {
				t.Fatalf("inserted %q, content %q missing", added, want)
			}
		}
		// The result parses.
		checkBody(t, out, 0, 1, scanBody(out, 0, 1))
	})
}

func commonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func reversed(b []byte) []byte {
	r := make([]byte, len(b))
	for i, c := range b {
		r[len(b)-1-i] = c
	}
	return r
}
