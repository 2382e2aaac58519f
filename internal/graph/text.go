package graph

import (
	"bytes"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wikid/wikid/internal/note"
)

// maxContext is how many characters of a link's line a backlink shows.
const maxContext = 200

// contextBefore is how many characters before the link a cut context keeps.
const contextBefore = 60

// contextLine returns the line of raw that holds the link that starts at
// start, trimmed, cut to maxContext characters around the link with "…"
// where it was cut.
func contextLine(raw []byte, start int) string {
	ls := bytes.LastIndexByte(raw[:start], '\n') + 1
	le := len(raw)
	if i := bytes.IndexByte(raw[start:], '\n'); i >= 0 {
		le = start + i
	}
	line := strings.ToValidUTF8(string(raw[ls:le]), "\uFFFD")
	line = strings.ReplaceAll(line, "\r", " ")
	trimmed := strings.TrimSpace(line)
	if len(trimmed) <= maxContext || utf8.RuneCountInString(trimmed) <= maxContext {
		return trimmed
	}
	lead := len(line) - len(strings.TrimLeftFunc(line, unicode.IsSpace))
	at := utf8.RuneCountInString(string(raw[ls:start])) - utf8.RuneCountInString(line[:lead])
	runes := []rune(trimmed)
	from := max(0, min(at-contextBefore, len(runes)-maxContext))
	to := from + maxContext
	out := string(runes[from:to])
	if from > 0 {
		out = "…" + out
	}
	if to < len(runes) {
		out += "…"
	}
	return out
}

// shareText makes the text of a note's links share memory, as a graph
// keeps every link's: their targets become substrings of one string, a
// target that links in a row share written once, and a lookup key that
// stands in its target a substring of it.
func shareText(ls []link) {
	fresh := func(i int) bool { return i == 0 || ls[i].target != ls[i-1].target }
	size := 0
	for i := range ls {
		if fresh(i) {
			size += len(ls[i].target)
		}
	}
	var b strings.Builder
	b.Grow(size)
	for i := range ls {
		if fresh(i) {
			b.WriteString(ls[i].target)
		}
	}
	text := b.String()
	for i := range ls {
		l := &ls[i]
		if fresh(i) {
			n := len(l.target)
			l.target, text = text[:n], text[n:]
		} else {
			l.target = ls[i-1].target
		}
		l.want = within(l.target, l.want)
	}
}

// within returns t as a substring of s when s holds it, so that t's own
// memory can go.
func within(s, t string) string {
	if i := strings.Index(s, t); i >= 0 && t != "" {
		return s[i : i+len(t)]
	}
	return t
}

// headingKeys returns the keys of a note's headings (their lowercased
// text and their slug) and of its block ids ("^id", lowercased), sorted,
// each once.
func headingKeys(n *note.Note) []string {
	keys := make([]string, 0, 2*len(n.Headings))
	for _, h := range n.Headings {
		keys = append(keys, strings.ToLower(strings.TrimSpace(h.Text)), slug(h.Text))
	}
	body := n.Raw[min(n.BodyStart, len(n.Raw)):]
	if bytes.IndexByte(body, '^') >= 0 {
		keys = appendBlockIDs(keys, body)
	}
	slices.Sort(keys)
	if keys = slices.Compact(keys); len(keys) < cap(keys) {
		keys = slices.Clone(keys) // every note's keys are kept: no spare room
	}
	return keys
}

// appendBlockIDs appends the keys of the block ids of a note's body: the
// "^id" that ends a line, alone or after a blank.
func appendBlockIDs(keys []string, body []byte) []string {
	for line := range bytes.Lines(body) {
		line = bytes.TrimRight(line, " \t\r\n")
		i := bytes.LastIndexByte(line, '^')
		if i < 0 || (i > 0 && line[i-1] != ' ' && line[i-1] != '\t') {
			continue
		}
		if id := line[i+1:]; len(id) > 0 && isBlockID(id) {
			keys = append(keys, "^"+strings.ToLower(string(id)))
		}
	}
	return keys
}

func isBlockID(id []byte) bool {
	for _, c := range id {
		if !(c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// hasHeading reports whether the note has the heading a link names:
// "A#B" needs both, "^id" a block id.
func (n *node) hasHeading(h string) bool {
	for _, seg := range strings.Split(h, "#") {
		seg = strings.TrimSpace(seg)
		if seg == "" {
			continue
		}
		if !n.hasKey(strings.ToLower(seg)) && !n.hasKey(slug(seg)) {
			return false
		}
	}
	return true
}

// hasKey reports whether the note has a heading or block id with key k.
func (n *node) hasKey(k string) bool {
	_, ok := slices.BinarySearch(n.headings, k)
	return ok
}

// slug is a heading's anchor as GitHub makes it: lowercase, letters,
// digits, '-' and '_' kept, spaces turned into '-', the rest dropped.
func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
