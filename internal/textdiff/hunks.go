package textdiff

import (
	"strconv"
	"strings"
)

// Hunk is a run of changes of one file with the unchanged lines around
// them: what a unified diff shows under one "@@ -l,s +l,s @@" header.
type Hunk struct {
	// OldStart and NewStart are the 1-based numbers of the hunk's first
	// line in the old and the new text; for a side where the hunk has no
	// line, the number of the line before it, as git writes it. OldLines
	// and NewLines count the hunk's lines of each side.
	OldStart, OldLines int
	NewStart, NewLines int
	Lines              []Line
}

// Op says what a line of a hunk is.
type Op byte

// The kinds of line of a hunk, as a unified diff prefixes them.
const (
	OpContext Op = ' '
	OpDelete  Op = '-'
	OpInsert  Op = '+'
)

// Line is one line of a hunk.
type Line struct {
	Op Op
	// Text is the line without its "\n" (a "\r" before it is kept).
	Text string
	// NoNewline is set on the last line of a text that does not end with
	// a newline.
	NoNewline bool
}

// Header returns the hunk's header as a unified diff writes it:
// "@@ -1,3 +1,4 @@".
func (h Hunk) Header() string {
	return "@@ -" + hunkRange(h.OldStart, h.OldLines) + " +" + hunkRange(h.NewStart, h.NewLines) + " @@"
}

// hunkRange formats a side of a hunk header the way git does: the count
// left out when it is 1.
func hunkRange(start, n int) string {
	if n == 1 {
		return strconv.Itoa(start)
	}
	return strconv.Itoa(start) + "," + strconv.Itoa(n)
}

// makeHunks groups the changes cs from a to z into hunks with ctx lines of
// context, merging changes at most 2*ctx lines apart.
func makeHunks(a, z []string, cs []change, ctx int) []Hunk {
	var out []Hunk
	for i := 0; i < len(cs); {
		j := i
		for j+1 < len(cs) && cs[j+1].A-(cs[j].A+cs[j].Del) <= 2*ctx {
			j++
		}
		first, last := cs[i], cs[j]
		pre := min(ctx, first.A)
		post := min(ctx, len(a)-(last.A+last.Del))
		aStart, zStart := first.A-pre, first.B-pre
		aEnd, zEnd := last.A+last.Del+post, last.B+last.Ins+post
		h := Hunk{OldStart: lineNumber(aStart, aEnd-aStart), OldLines: aEnd - aStart,
			NewStart: lineNumber(zStart, zEnd-zStart), NewLines: zEnd - zStart}
		h.Lines = make([]Line, 0, (aEnd-aStart)+(zEnd-zStart))
		pos := aStart
		for _, c := range cs[i : j+1] {
			for ; pos < c.A; pos++ {
				h.Lines = append(h.Lines, line(OpContext, a[pos]))
			}
			for _, l := range a[c.A : c.A+c.Del] {
				h.Lines = append(h.Lines, line(OpDelete, l))
			}
			for _, l := range z[c.B : c.B+c.Ins] {
				h.Lines = append(h.Lines, line(OpInsert, l))
			}
			pos = c.A + c.Del
		}
		for ; pos < aEnd; pos++ {
			h.Lines = append(h.Lines, line(OpContext, a[pos]))
		}
		out = append(out, h)
		i = j + 1
	}
	return out
}

// lineNumber is the 1-based number git gives the lines [start, start+n)
// of a side: an empty range is named by the line before it.
func lineNumber(start, n int) int {
	if n == 0 {
		return start
	}
	return start + 1
}

// line makes the hunk line of a line of text, which keeps its "\n".
func line(op Op, text string) Line {
	t, ok := strings.CutSuffix(text, "\n")
	return Line{Op: op, Text: t, NoNewline: !ok}
}

// writeHunk writes a hunk of a unified diff.
func writeHunk(b *strings.Builder, h Hunk) {
	b.WriteString(h.Header())
	b.WriteByte('\n')
	for _, l := range h.Lines {
		b.WriteByte(byte(l.Op))
		b.WriteString(l.Text)
		b.WriteByte('\n')
		if l.NoNewline {
			b.WriteString("\\ No newline at end of file\n")
		}
	}
}
