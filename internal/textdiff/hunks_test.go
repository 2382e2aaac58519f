package textdiff

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestUnifiedHunks(t *testing.T) {
	tests := []struct {
		name string
		f    FileDiff
		ctx  int
		want []Hunk
	}{
		{"one line changed", FileDiff{OldPath: "a.md", NewPath: "a.md", Old: []byte("1\n2\n3\n"), New: []byte("1\nTwo\n3\n")}, 3,
			[]Hunk{{OldStart: 1, OldLines: 3, NewStart: 1, NewLines: 3, Lines: []Line{
				{Op: OpContext, Text: "1"}, {Op: OpDelete, Text: "2"}, {Op: OpInsert, Text: "Two"}, {Op: OpContext, Text: "3"}}}}},
		{"created", FileDiff{NewPath: "n.md", New: []byte("hello")}, 3,
			[]Hunk{{OldStart: 0, OldLines: 0, NewStart: 1, NewLines: 1, Lines: []Line{{Op: OpInsert, Text: "hello", NoNewline: true}}}}},
		{"deleted", FileDiff{OldPath: "d.md", Old: []byte("a\r\nb\r\n")}, 3,
			[]Hunk{{OldStart: 1, OldLines: 2, NewStart: 0, NewLines: 0, Lines: []Line{{Op: OpDelete, Text: "a\r"}, {Op: OpDelete, Text: "b\r"}}}}},
		{"two hunks without context", FileDiff{OldPath: "x.md", NewPath: "x.md", Old: []byte(numbered(10)), New: []byte(replaceLine(replaceLine(numbered(10), 2, "b\n"), 9, "i\n"))}, 0,
			[]Hunk{
				{OldStart: 2, OldLines: 1, NewStart: 2, NewLines: 1, Lines: []Line{{Op: OpDelete, Text: "2"}, {Op: OpInsert, Text: "b"}}},
				{OldStart: 9, OldLines: 1, NewStart: 9, NewLines: 1, Lines: []Line{{Op: OpDelete, Text: "9"}, {Op: OpInsert, Text: "i"}}},
			}},
		{"pure rename", FileDiff{OldPath: "a.md", NewPath: "b.md", Old: []byte("x\n"), New: []byte("x\n")}, 3, nil},
		{"unchanged", FileDiff{OldPath: "a.md", NewPath: "a.md", Old: []byte("x\n"), New: []byte("x\n")}, 3, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, hunks := UnifiedHunks([]FileDiff{tt.f}, tt.ctx)
			if !reflect.DeepEqual(hunks[0], tt.want) {
				t.Errorf("hunks = %#v\nwant %#v", hunks[0], tt.want)
			}
			if text != Unified([]FileDiff{tt.f}, tt.ctx) {
				t.Errorf("UnifiedHunks' text differs from Unified's")
			}
		})
	}
}

// TestUnifiedHunks_Random checks that the hunks are the diff's text as
// structure: written back, they are the text's hunks, header for header
// and line for line.
func TestUnifiedHunks_Random(t *testing.T) {
	g := newTextGen(2)
	for i := range 200 {
		old := g.text(g.r.Intn(40), 0.3)
		f := FileDiff{OldPath: "a.md", NewPath: "a.md", Old: []byte(join(old, i%3 == 0)),
			New: []byte(join(g.edit(old, 1+g.r.Intn(5), 0.3), i%4 == 0))}
		ctx := i % 5
		text, hunks := UnifiedHunks([]FileDiff{f}, ctx)
		var b strings.Builder
		for _, h := range hunks[0] {
			writeHunk(&b, h)
		}
		got := b.String()
		want := ""
		if at := strings.Index(text, "\n@@ "); at >= 0 {
			want = text[at+1:]
		}
		if got != want {
			t.Fatalf("case %d (ctx %d): the hunks write\n%s\nthe text has\n%s", i, ctx, got, want)
		}
		for _, h := range hunks[0] {
			var old, new int
			for _, l := range h.Lines {
				switch l.Op {
				case OpContext:
					old, new = old+1, new+1
				case OpDelete:
					old++
				case OpInsert:
					new++
				}
			}
			if old != h.OldLines || new != h.NewLines {
				t.Fatalf("case %d: hunk %s holds %d old and %d new lines", i, h.Header(), old, new)
			}
		}
	}
}

func TestHunk_Header(t *testing.T) {
	for _, tt := range []struct {
		h    Hunk
		want string
	}{
		{Hunk{OldStart: 1, OldLines: 3, NewStart: 1, NewLines: 4}, "@@ -1,3 +1,4 @@"},
		{Hunk{OldStart: 5, OldLines: 1, NewStart: 5, NewLines: 1}, "@@ -5 +5 @@"},
		{Hunk{OldStart: 0, OldLines: 0, NewStart: 1, NewLines: 2}, "@@ -0,0 +1,2 @@"},
	} {
		t.Run(fmt.Sprint(tt.want), func(t *testing.T) {
			if got := tt.h.Header(); got != tt.want {
				t.Errorf("Header() = %q, want %q", got, tt.want)
			}
		})
	}
}
