package note

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// scanInline finds the links and tags in src[bs:be], a run of text lines
// (a paragraph, a list item, a heading's text) that begins on line num, and
// adds them to b.
//
// It reads left to right the way CommonMark does: a backslash escapes the
// next punctuation character, code spans (backtick runs of equal length)
// and HTML comments hide everything in them, and a link, autolink or bare
// URL is skipped as a whole, so that a '#' inside it is not a tag.
func scanInline(src []byte, bs, be, num int, b *body) {
	in := inline{src: src, bs: bs, be: be, b: b, pos: bs, line: num}
	for i := bs; i < be; {
		c := src[i]
		switch {
		case c == '\\' && i+1 < be && isASCIIPunct(src[i+1]):
			i += 2
		case c == '`':
			i = in.codeSpan(i)
		case c == '<':
			i = in.angle(i)
		case c == '!' && i+1 < be && src[i+1] == '[':
			i = in.bang(i)
		case c == '[':
			i = in.bracket(i)
		case c == '#':
			i = in.tag(i)
		case isASCIILetter(c) && in.wordStart(i):
			i = in.bareURL(i)
		default:
			i++
		}
	}
}

// inline is the state of scanInline. Each method takes the offset of the
// byte that triggered it and returns the offset to go on from, which is
// always past it.
type inline struct {
	src    []byte
	bs, be int
	b      *body

	// line is the number of the line holding offset pos; lineAt moves
	// both forward.
	pos, line int

	// noCloser holds the lengths of backtick runs that have no closing
	// run ahead, and noCommentEnd says there is no "-->" ahead: once a
	// search fails it would fail again further on, so it is not repeated.
	noCloser     map[int]bool
	noCommentEnd bool
}

// lineAt returns the line number of offset off, which must not be before
// the offset of an earlier call.
func (in *inline) lineAt(off int) int {
	in.line += bytes.Count(in.src[in.pos:off], []byte("\n"))
	in.pos = off
	return in.line
}

// codeSpan skips the code span opening at i, or the backtick run at i if
// no run of the same length closes it.
func (in *inline) codeSpan(i int) int {
	src, be := in.src, in.be
	n := runLen(src[i:be], '`')
	if in.noCloser[n] {
		return i + n
	}
	for j := i + n; j < be; {
		k := bytes.IndexByte(src[j:be], '`')
		if k < 0 {
			break
		}
		j += k
		m := runLen(src[j:be], '`')
		if m == n {
			return j + m
		}
		j += m
	}
	if in.noCloser == nil {
		in.noCloser = make(map[int]bool)
	}
	in.noCloser[n] = true
	return i + n
}

// angle skips an HTML comment or an autolink such as <https://x/#y>
// opening at i.
func (in *inline) angle(i int) int {
	src, be := in.src, in.be
	if bytes.HasPrefix(src[i:be], []byte("<!--")) {
		if !in.noCommentEnd {
			if k := bytes.Index(src[i+4:be], []byte("-->")); k >= 0 {
				return i + 4 + k + 3
			}
			in.noCommentEnd = true
		}
		return i + 1
	}
	j := i + 1 + schemeLen(src[i+1:be])
	if j == i+1 || j >= be || src[j] != ':' {
		return i + 1
	}
	for j < be && src[j] > ' ' && src[j] != '<' && src[j] != '>' {
		j++
	}
	if j < be && src[j] == '>' {
		return j + 1
	}
	return i + 1
}

// bang handles '!' before '[' at i: an embed ![[x]] or an image ![](x),
// a link when it names a relative file.
func (in *inline) bang(i int) int {
	if i+2 < in.be && in.src[i+2] == '[' {
		if end, ok := in.wikilink(i+1, true); ok {
			return end
		}
	}
	if end, ok := in.markdownLink(i+1, true); ok {
		return end
	}
	return i + 1
}

// bracket handles '[' at i: a wikilink or a markdown link.
func (in *inline) bracket(i int) int {
	if i+1 < in.be && in.src[i+1] == '[' {
		if end, ok := in.wikilink(i, false); ok {
			return end
		}
	}
	if end, ok := in.markdownLink(i, false); ok {
		return end
	}
	return i + 1
}

// tag reads an inline tag at the '#' at i: after the start of the text, a
// blank, '(' or ','; made of letters, marks, digits, '_', '-' and '/'; not
// only digits. A trailing '/' is not part of it.
func (in *inline) tag(i int) int {
	src, be := in.src, in.be
	if !in.tagBoundary(i) {
		return i + 1
	}
	j := i + 1
	for j < be {
		r, size := utf8.DecodeRune(src[j:be])
		if !isTagRune(r) {
			break
		}
		j += size
	}
	name := bytes.TrimRight(src[i+1:j], "/")
	if bytes.ContainsFunc(name, func(r rune) bool { return !unicode.IsDigit(r) }) {
		in.b.Tags = append(in.b.Tags, string(name))
	}
	return max(j, i+1)
}

func (in *inline) tagBoundary(i int) bool {
	if i == in.bs {
		return true
	}
	if c := in.src[i-1]; c == '(' || c == ',' {
		return true
	}
	r, _ := utf8.DecodeLastRune(in.src[in.bs:i])
	return unicode.IsSpace(r)
}

func isTagRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) ||
		r == '_' || r == '-' || r == '/'
}

// wordStart reports whether i starts a word that could be a bare URL.
func (in *inline) wordStart(i int) bool {
	if i == in.bs {
		return true
	}
	switch in.src[i-1] {
	case ' ', '\t', '\n', '\r', '(', '<':
		return true
	}
	return false
}

// bareURL skips a bare URL like https://x/#y starting at the letter at i,
// or else the run of scheme characters there, none of which starts
// anything else.
func (in *inline) bareURL(i int) int {
	src, be := in.src, in.be
	j := i + schemeLen(src[i:be])
	if !bytes.HasPrefix(src[j:be], []byte("://")) {
		return max(j, i+1)
	}
	for j < be && !isBlankByte(src[j]) && src[j] != '\n' {
		j++
	}
	return j
}

// schemeLen is the length of the URL scheme at the start of b: a letter,
// then letters, digits, '+', '.' or '-', 32 bytes at most; 0 if none.
func schemeLen(b []byte) int {
	if len(b) == 0 || !isASCIILetter(b[0]) {
		return 0
	}
	n := 1
	for n < len(b) && n < maxSchemeLen {
		c := b[n]
		if !isASCIILetter(c) && !('0' <= c && c <= '9') && c != '+' && c != '.' && c != '-' {
			break
		}
		n++
	}
	return n
}

// runLen is the number of c at the start of b.
func runLen(b []byte, c byte) int {
	n := 0
	for n < len(b) && b[n] == c {
		n++
	}
	return n
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isASCIIPunct(c byte) bool {
	return '!' <= c && c <= '/' || ':' <= c && c <= '@' || '[' <= c && c <= '`' || '{' <= c && c <= '~'
}
