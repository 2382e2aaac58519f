package note

import (
	"bytes"
	"net/url"
	"strings"
	"unicode/utf8"
)

// Limits that keep the link parsers linear on hostile input. A markdown link
// whose text is longer, or nests brackets or parentheses deeper, is text.
const (
	maxLinkText  = 1000
	maxLinkNest  = 32
	maxSchemeLen = 32
)

// wikilink reads [[Target#Heading|label]] whose first '[' is at open; embed
// says a '!' precedes it. The link must close on its line and hold no
// other bracket. The label starts after the first '|', or after "\|" as
// written inside tables; the heading after the first '#' before it. The
// target is trimmed and may be empty only when a heading follows.
func (in *inline) wikilink(open int, embed bool) (int, bool) {
	src, be := in.src, in.be
	cs, ce := open+2, -1
	for j := cs; j < be && ce < 0; j++ {
		switch src[j] {
		case '\n', '\r', '[':
			return 0, false
		case ']':
			if j+1 >= be || src[j+1] != ']' {
				return 0, false
			}
			ce = j
		}
	}
	if ce < 0 {
		return 0, false
	}
	te, ls := ce, ce
	if k := bytes.IndexByte(src[cs:ce], '|'); k >= 0 {
		te, ls = cs+k, cs+k+1
		if te > cs && src[te-1] == '\\' {
			te--
		}
	}
	ts, tEnd := cs, te
	var heading string
	if k := bytes.IndexByte(src[cs:te], '#'); k >= 0 {
		tEnd = cs + k
		heading = trimmed(src, tEnd+1, te)
	}
	ts, tEnd = trimRange(src, ts, tEnd)
	if ts == tEnd && heading == "" {
		return 0, false
	}
	l := Link{
		Kind: LinkWiki, Target: string(src[ts:tEnd]), Heading: heading, Label: trimmed(src, ls, ce),
		Start: open, End: ce + 2, TargetStart: ts, TargetEnd: tEnd,
	}
	if embed {
		l.Kind, l.Start = LinkEmbed, open-1
	}
	l.Line = in.lineAt(l.Start)
	in.b.Links = append(in.b.Links, l)
	return l.End, true
}

// markdownLink reads an inline link [text](destination "title") whose '['
// is at open, or an image when image is set. The text may span lines and
// nest balanced brackets. It returns the offset after the link; a link or
// an image to a relative path of a file is added to the links.
func (in *inline) markdownLink(open int, image bool) (int, bool) {
	src, be := in.src, in.be
	depth, closing := 0, -1
	for j := open; j < be && j-open <= maxLinkText && closing < 0; j++ {
		switch src[j] {
		case '\\':
			j++
		case '[':
			if depth++; depth > maxLinkNest {
				return 0, false
			}
		case ']':
			if depth--; depth == 0 {
				closing = j
			}
		}
	}
	if closing < 0 || closing+1 >= be || src[closing+1] != '(' {
		return 0, false
	}
	d, ok := parseDestination(src, closing+2, be)
	if !ok {
		return 0, false
	}
	in.addMarkdownLink(open, closing, d, image)
	return d.end, true
}

// destination is the parsed "(...)" part of a markdown link: [start, stop)
// is the destination as written, without angle brackets; end is the offset
// after the closing ')'.
type destination struct {
	start, stop, end int
}

// parseDestination parses a link destination and optional title from p,
// just after the '(', up to the closing ')'.
func parseDestination(src []byte, p, be int) (destination, bool) {
	var d destination
	p = skipBlanks(src, p, be)
	if p >= be {
		return d, false
	}
	if src[p] == '<' {
		j := p + 1
		for ; j < be && src[j] != '>'; j++ {
			switch src[j] {
			case '\n', '\r', '<':
				return d, false
			case '\\':
				j++
			}
		}
		if j >= be {
			return d, false
		}
		d.start, d.stop, p = p+1, j, j+1
	} else {
		j, depth := p, 0
	dest:
		for ; j < be; j++ {
			switch c := src[j]; {
			case c <= ' ' || c == 0x7f:
				break dest
			case c == '\\' && j+1 < be && isASCIIPunct(src[j+1]):
				j++
			case c == '(':
				if depth++; depth > maxLinkNest {
					return d, false
				}
			case c == ')':
				if depth == 0 {
					break dest
				}
				depth--
			}
		}
		if depth != 0 {
			return d, false
		}
		d.start, d.stop, p = p, j, j
	}
	q := skipBlanks(src, p, be)
	if q > p && q < be && (src[q] == '"' || src[q] == '\'' || src[q] == '(') {
		closer := src[q]
		if closer == '(' {
			closer = ')'
		}
		j := q + 1
		for ; j < be && src[j] != closer; j++ {
			if src[j] == '\\' {
				j++
			}
		}
		if j >= be {
			return d, false
		}
		q = skipBlanks(src, j+1, be)
	}
	if q >= be || src[q] != ')' {
		return d, false
	}
	d.end = q + 1
	return d, true
}

// addMarkdownLink adds the link [text](d), or the image ![text](d) when
// image is set, whose text is src[open+1:closing], if its destination is a
// relative path to a file: no scheme (http:, mailto:, data:), not absolute,
// not only a #heading, and its last segment has an extension (note.md,
// img/a.png, spec.pdf; not a folder like docs/ nor a name like LICENSE),
// before an optional ?query and #heading. Target and heading are
// URL-decoded.
func (in *inline) addMarkdownLink(open, closing int, d destination, image bool) {
	src := in.src
	pathEnd := d.start + indexAny(src[d.start:d.stop], "?#")
	path := src[d.start:pathEnd]
	if len(path) == 0 || path[0] == '/' || path[0] == '\\' || hasScheme(path) {
		return
	}
	target := decodeURL(path)
	if !hasFileExt(target) {
		return
	}
	var heading string
	if k := bytes.IndexByte(src[pathEnd:d.stop], '#'); k >= 0 {
		heading = decodeURL(src[pathEnd+k+1 : d.stop])
	}
	label := trimmed(src, open+1, closing)
	start := open
	if image {
		start--
	}
	if strings.ContainsAny(label, "\r\n") {
		label = strings.Join(strings.Fields(label), " ")
	}
	in.b.Links = append(in.b.Links, Link{
		Kind: LinkMarkdown, Target: target, Embed: image, Heading: heading, Label: label,
		Line: in.lineAt(start), Start: start, End: d.end, TargetStart: d.start, TargetEnd: pathEnd,
	})
}

// hasScheme reports whether b starts with a URL scheme and ':'.
func hasScheme(b []byte) bool {
	n := schemeLen(b)
	return n > 0 && n < len(b) && b[n] == ':'
}

// hasFileExt reports whether the last segment of p has an extension: a
// '.' followed by something, other than in "." and "..".
func hasFileExt(p string) bool {
	name := p[strings.LastIndexAny(p, "/\\")+1:]
	i := strings.LastIndexByte(name, '.')
	return i >= 0 && i < len(name)-1 && name != ".."
}

// decodeURL percent-decodes b; if that fails or yields invalid UTF-8 or a
// control character, b is returned as written.
func decodeURL(b []byte) string {
	s, err := url.PathUnescape(string(b))
	if err != nil || !utf8.ValidString(s) || strings.ContainsFunc(s, isControl) {
		return string(b)
	}
	return s
}

func isControl(r rune) bool { return r < ' ' || r == 0x7f }

// indexAny is the index in b of the first byte in chars, or len(b).
func indexAny(b []byte, chars string) int {
	if k := bytes.IndexAny(b, chars); k >= 0 {
		return k
	}
	return len(b)
}

// skipBlanks returns the offset of the first byte from p that is not a
// space, tab or line ending.
func skipBlanks(src []byte, p, be int) int {
	for p < be && (isBlankByte(src[p]) || src[p] == '\n') {
		p++
	}
	return p
}

// trimRange narrows [a, b) of src to exclude surrounding blanks.
func trimRange(src []byte, a, b int) (int, int) {
	for a < b && isBlankByte(src[a]) {
		a++
	}
	for b > a && isBlankByte(src[b-1]) {
		b--
	}
	return a, b
}

// trimmed is src[a:b] without surrounding blanks, as a string.
func trimmed(src []byte, a, b int) string {
	a, b = trimRange(src, a, b)
	return string(src[a:b])
}
