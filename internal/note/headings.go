package note

import (
	"bytes"
	"strings"
)

// parseATX reads an ATX heading from src[rest:end], a line after its
// indentation: 1 to 6 '#' followed by a blank or the end of the line. It
// returns the level and the range of the text, trimmed, without an
// optional closing run of '#' (which must follow a blank).
func parseATX(src []byte, rest, end int) (level, ts, te int, ok bool) {
	i := rest
	for i < end && src[i] == '#' && i-rest <= 6 {
		i++
	}
	level = i - rest
	if level == 0 || level > 6 || (i < end && !isBlankByte(src[i])) {
		return 0, 0, 0, false
	}
	ts, te = i, end
	for ts < te && isBlankByte(src[ts]) {
		ts++
	}
	for te > ts && isBlankByte(src[te-1]) {
		te--
	}
	j := te
	for j > ts && src[j-1] == '#' {
		j--
	}
	switch {
	case j == ts:
		te = ts
	case isBlankByte(src[j-1]):
		te = j
		for te > ts && isBlankByte(src[te-1]) {
			te--
		}
	}
	return level, ts, te, true
}

// headingText is the text of an ATX heading; a stray carriage return
// inside it becomes a space.
func headingText(b []byte) string {
	return strings.ReplaceAll(string(b), "\r", " ")
}

// setextText is the text of a setext heading from its paragraph lines: each
// line trimmed, joined with single spaces.
func setextText(b []byte) string {
	var sb strings.Builder
	for line := range bytes.SplitSeq(b, []byte("\n")) {
		line = bytes.Trim(line, " \t\r")
		if len(line) == 0 {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.Write(line)
	}
	return strings.ReplaceAll(sb.String(), "\r", " ")
}

// finishHeadings sets End and Parent of headings found in a source of
// length n: a section ends at the next heading of the same or a higher
// level (a lower or equal Level number), and a heading's parent is the
// nearest heading before it with a lower Level number.
func finishHeadings(hs []Heading, n int) {
	var open []int // indexes of headings whose section is open, levels increasing
	for i := range hs {
		for len(open) > 0 && hs[open[len(open)-1]].Level >= hs[i].Level {
			hs[open[len(open)-1]].End = hs[i].Start
			open = open[:len(open)-1]
		}
		hs[i].Parent = -1
		if len(open) > 0 {
			hs[i].Parent = open[len(open)-1]
		}
		open = append(open, i)
	}
	for _, i := range open {
		hs[i].End = n
	}
}
