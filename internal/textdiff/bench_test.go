package textdiff

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// benchNote returns a note of n lines: headings, paragraphs, list items and
// blank lines.
func benchNote(n int) []string {
	lines := make([]string, n)
	for i := range lines {
		switch {
		case i%25 == 0:
			lines[i] = fmt.Sprintf("## Section %d\n", i/25)
		case i%5 == 4:
			lines[i] = "\n"
		case i%5 == 3:
			lines[i] = fmt.Sprintf("- item %d with a [[link %d]]\n", i, i%7)
		default:
			lines[i] = fmt.Sprintf("Line %d of a paragraph that says something about topic %d.\n", i, i%11)
		}
	}
	return lines
}

// benchEdit rewrites every step-th line from first on, k times in all.
func benchEdit(lines []string, first, step, k int) string {
	out := append([]string(nil), lines...)
	for i := range k {
		out[first+i*step] = fmt.Sprintf("edited line %d\n", i)
	}
	return strings.Join(out, "")
}

func BenchmarkUnified(b *testing.B) {
	for _, bc := range []struct {
		name               string
		lines, edits, step int
	}{
		{"200 lines, 5 edits", 200, 5, 40},
		{"5000 lines, 50 edits", 5000, 50, 100},
		{"8000 lines, all rewritten", 8000, 8000, 1},
	} {
		note := benchNote(bc.lines)
		fds := []FileDiff{{"notes/n.md", "notes/n.md", []byte(strings.Join(note, "")), []byte(benchEdit(note, 0, bc.step, bc.edits))}}
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Unified(fds, 3)
			}
		})
	}
	// The worst case of the exact diff: distinct lines, all of them on both
	// sides but in the opposite order, as many as exactLimit allows.
	note := make([]string, exactLimit/2)
	for i := range note {
		note[i] = fmt.Sprintf("- item %d\n", i)
	}
	reversed := slices.Clone(note)
	slices.Reverse(reversed)
	fds := []FileDiff{{"notes/n.md", "notes/n.md", []byte(strings.Join(note, "")), []byte(strings.Join(reversed, ""))}}
	b.Run(fmt.Sprintf("%d lines reversed", len(note)), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Unified(fds, 3)
		}
	})
}

func BenchmarkMerge3(b *testing.B) {
	note := benchNote(200)
	base := []byte(strings.Join(note, ""))
	ours := []byte(benchEdit(note, 10, 20, 5))    // lines 10, 30, …, 90
	theirs := []byte(benchEdit(note, 110, 20, 5)) // lines 110, 130, …, 190
	if _, _, err := Merge3(base, ours, theirs); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		Merge3(base, ours, theirs)
	}
}
