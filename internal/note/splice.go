package note

import (
	"bytes"
	"strings"
)

// lineEnding returns the line ending of src's first line, "\r\n" or "\n";
// "\n" when src has none.
func lineEnding(src []byte) string {
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// withLineEnding returns s with every line ending, "\r\n" or "\n", made le.
func withLineEnding(s, le string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if le != "\n" {
		s = strings.ReplaceAll(s, "\n", le)
	}
	return s
}

// nonBlankRange returns the lines of src[a:b] from the first that is not
// blank up to the end of the last one, line ending included; ok is false
// when all are blank. a is at a line start, b at a line start or len(src).
func nonBlankRange(src []byte, a, b int) (start, end int, ok bool) {
	for p := a; p < b; {
		e, next := b, b
		if i := bytes.IndexByte(src[p:b], '\n'); i >= 0 {
			e, next = p+i, p+i+1
		}
		if !isBlank(src[p:e]) {
			if !ok {
				start, ok = p, true
			}
			end = next
		}
		p = next
	}
	return start, end, ok
}

// splice returns a copy of the note's bytes with [a, b) replaced by
// content, whose line endings are already le. a and b are at line starts,
// or at the end of a last line without a line ending. Non-empty content
// goes in as whole lines: it gets a final line ending, and one before it
// when it follows such a last line.
//
// A blank line is added only where a setext underline would otherwise
// join the neighbouring text into a heading or break one: between a text
// line and content starting with a "---" or "===" line, and between
// content (or, for a deletion, the line before a) and a following setext
// heading or "---"/"===" line.
//
// The top of the file, after a byte order mark if there is one, counts as
// a line start with nothing before it.
func (n *Note) splice(a, b int, content, le string) []byte {
	src := n.Raw
	top := bomLen(src)
	textBefore := a > top && !isBlank(lineBefore(src, a))
	underlineAfter := b < len(src) && (isUnderline(lineFrom(src, b)) || n.setextAt(b))
	var text string
	switch {
	case content != "":
		text = content
		if !strings.HasSuffix(text, "\n") {
			text += le
		}
		if textBefore && isUnderline([]byte(firstLine(text))) {
			text = le + text
		}
		if a > top && src[a-1] != '\n' {
			text = le + text
		}
		if underlineAfter && !isBlank([]byte(lastLine(text))) {
			text += le
		}
	case textBefore && underlineAfter:
		text = le
	}
	out := make([]byte, 0, len(src)-(b-a)+len(text))
	out = append(out, src[:a]...)
	out = append(out, text...)
	return append(out, src[b:]...)
}

// setextAt reports whether a setext heading starts at off.
func (n *Note) setextAt(off int) bool {
	for _, h := range n.Headings {
		if h.Start == off {
			line := lineFrom(n.Raw, off)
			i := indentBytes(line)
			_, _, _, atx := parseATX(n.Raw, off+i, off+len(line))
			return !atx
		}
	}
	return false
}

// isUnderline reports whether line could underline a setext heading.
func isUnderline(line []byte) bool {
	return indentWidth(line) < 4 && setextLevel(line[indentBytes(line):]) > 0
}

// lineBefore returns the line that ends at off (at a line start) or holds
// off (at the end of a last line without a line ending).
func lineBefore(src []byte, off int) []byte {
	end := off
	if end > 0 && src[end-1] == '\n' {
		end--
	}
	return src[bytes.LastIndexByte(src[:end], '\n')+1 : end]
}

// lineFrom returns the line starting at off, without its line ending.
func lineFrom(src []byte, off int) []byte {
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		return src[off : off+i]
	}
	return src[off:]
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// lastLine returns the last line of s, which ends with a line ending.
func lastLine(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return s[strings.LastIndexByte(s, '\n')+1:]
}
