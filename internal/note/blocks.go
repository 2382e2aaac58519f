package note

import "bytes"

// The line classifiers of scanBody. Each looks at one line's bytes, without
// the line ending; most take the line after its indentation, which the
// caller measures with indentWidth.

// isBlankByte reports whether c is a space, a tab or a stray carriage return.
func isBlankByte(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// isBlank reports whether b holds only spaces, tabs and carriage returns.
func isBlank(b []byte) bool {
	for _, c := range b {
		if !isBlankByte(c) {
			return false
		}
	}
	return true
}

// indentWidth is the width of b's leading spaces and tabs, a tab advancing
// to the next multiple of 4 columns.
func indentWidth(b []byte) int {
	w := 0
	for _, c := range b {
		switch c {
		case ' ':
			w++
		case '\t':
			w += 4 - w%4
		default:
			return w
		}
	}
	return w
}

// indentBytes is the number of b's leading spaces and tabs.
func indentBytes(b []byte) int {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return i
}

// quotePrefix counts the block quote markers ('>' after up to 3 spaces, and
// one optional space) at the start of b, at most limit of them if limit is
// not negative. It returns their number and the offset after them.
func quotePrefix(b []byte, limit int) (depth, off int) {
	for limit < 0 || depth < limit {
		i := 0
		for i < 3 && off+i < len(b) && b[off+i] == ' ' {
			i++
		}
		i += off
		if i >= len(b) || b[i] != '>' {
			break
		}
		i++
		if i < len(b) && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
		off = i
		depth++
	}
	return depth, off
}

// fence is an open fenced code block.
type fence struct {
	char   byte // '`' or '~'; 0 when no fence is open
	n      int  // length of the opening run
	indent int  // indentation width of the opening line
	depth  int  // block quote depth of the opening line
}

// openFence reports whether b, a line after its indentation of width w, in
// depth block quotes, opens a fenced code block: 3 or more backticks not
// followed by another backtick on the line, or 3 or more tildes.
func openFence(b []byte, w, depth int) (fence, bool) {
	if len(b) < 3 || (b[0] != '`' && b[0] != '~') {
		return fence{}, false
	}
	c, n := b[0], 0
	for n < len(b) && b[n] == c {
		n++
	}
	if n < 3 || (c == '`' && bytes.IndexByte(b[n:], '`') >= 0) {
		return fence{}, false
	}
	return fence{char: c, n: n, indent: w, depth: depth}, true
}

// continues reports whether the line b belongs to the fence, as content or
// as its closing line; at the closing line it closes the fence. It reports
// false for a line outside the block quote the fence opened in, which ends
// the fence and must be read as an ordinary line.
func (f *fence) continues(b []byte) bool {
	if f.depth > 0 {
		depth, off := quotePrefix(b, f.depth)
		if depth < f.depth {
			return false
		}
		b = b[off:]
	}
	if indentWidth(b) > max(3, f.indent+3) {
		return true
	}
	b = b[indentBytes(b):]
	n := 0
	for n < len(b) && b[n] == f.char {
		n++
	}
	if n >= f.n && isBlank(b[n:]) {
		f.char = 0
	}
	return true
}

// isThematicBreak reports whether b is 3 or more '-', '*' or '_' (one of
// them), optionally separated by spaces or tabs.
func isThematicBreak(b []byte) bool {
	if len(b) == 0 || (b[0] != '-' && b[0] != '*' && b[0] != '_') {
		return false
	}
	n := 0
	for _, c := range b {
		switch {
		case c == b[0]:
			n++
		case isBlankByte(c):
		default:
			return false
		}
	}
	return n >= 3
}

// setextLevel returns 1 for a line of '=' and 2 for a line of '-' (trailing
// blanks allowed), and 0 for any other line.
func setextLevel(b []byte) int {
	if len(b) == 0 || (b[0] != '=' && b[0] != '-') {
		return 0
	}
	i := 0
	for i < len(b) && b[i] == b[0] {
		i++
	}
	switch {
	case !isBlank(b[i:]):
		return 0
	case b[0] == '=':
		return 1
	default:
		return 2
	}
}

// isListItem reports whether b starts a list item: '-', '*' or '+', or 1
// to 9 digits and '.' or ')', followed by a blank or the end of the line.
func isListItem(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	if b[0] == '-' || b[0] == '*' || b[0] == '+' {
		return len(b) == 1 || isBlankByte(b[1])
	}
	i := 0
	for i < len(b) && i < 10 && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	if i == 0 || i > 9 || i == len(b) || (b[i] != '.' && b[i] != ')') {
		return false
	}
	return i+1 == len(b) || isBlankByte(b[i+1])
}

// interruptsParagraph reports whether the list item b may start right after
// a paragraph line: an ordered list must start at 1, and an empty item
// cannot interrupt a paragraph.
func interruptsParagraph(b []byte) bool {
	i := 0
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	if i > 0 && !bytes.Equal(bytes.TrimLeft(b[:i], "0"), []byte("1")) {
		return false
	}
	return !isBlank(b[i+1:])
}

// isTableDelimiter reports whether b is the delimiter row of a table, like
// "|---|:--:|" or "--- | ---".
func isTableDelimiter(b []byte) bool {
	pipe, dash := false, false
	for _, c := range b {
		switch {
		case c == '|':
			pipe = true
		case c == '-':
			dash = true
		case c == ':' || isBlankByte(c):
		default:
			return false
		}
	}
	return pipe && dash
}
