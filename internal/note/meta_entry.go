package note

import (
	"bytes"
	"reflect"

	"gopkg.in/yaml.v3"
)

// fmEntry is a top-level key of a frontmatter block and the bytes it spans.
//
// The rule for an entry's range: it starts at the beginning of the key's
// line and ends after the last line that belongs to the key's value. Lines
// between the value and the next key (or the closing delimiter) that are
// blank or hold only a comment are not part of it: they are the head
// comment of what follows, or spacing, and an edit keeps them. Whether such
// a line is part of the value (a blank line kept by "|+", a line of a
// literal block that starts with '#', the end of a quoted string) is
// decided by reading the candidate range back with yaml.v3: the range is
// the shortest one that decodes to the same key and value.
type fmEntry struct {
	key           string
	keyNode, val  *yaml.Node
	start, end    int // byte range in the file
	line, endLine int // YAML lines: first line, and the first line after the range
	// indent is the whitespace before the key; prefix is the key line up to
	// and including the ':' after the key, or "" if it could not be found
	// (the key is then written anew).
	indent, prefix string
}

// single reports whether the entry is one line.
func (e *fmEntry) single() bool { return e.endLine == e.line+1 }

// lineComment returns the comment at the end of a one-line entry.
func (e *fmEntry) lineComment() string {
	if !e.single() {
		return ""
	}
	if e.val.LineComment != "" {
		return e.val.LineComment
	}
	return e.keyNode.LineComment
}

// checkLayout reports an error unless every top-level key starts its own
// line (after indentation), which key-by-key edits rely on.
func (b *fmBlock) checkLayout() error {
	if b.root == nil {
		return nil
	}
	for i := 0; i < len(b.root.Content); i += 2 {
		k := b.root.Content[i]
		if _, ok := b.keyIndent(k); !ok {
			return b.errorAt(k.Line, "cannot change keys one by one: each top-level key must start its own line").
				WithHint("rewrite the note with its frontmatter as one key: value pair per line")
		}
	}
	return nil
}

// keyIndent returns the whitespace before key node k on its line, and
// whether only whitespace precedes it.
func (b *fmBlock) keyIndent(k *yaml.Node) (string, bool) {
	line := b.lineText(k.Line)
	n := k.Column - 1
	if n < 0 || n > len(line) {
		return "", false
	}
	for _, c := range line[:n] {
		if c != ' ' && c != '\t' {
			return "", false
		}
	}
	return string(line[:n]), true
}

// entryAt returns the entry whose key is root.Content[i]. The layout must
// have been checked.
func (b *fmBlock) entryAt(i int) *fmEntry {
	k, v := b.root.Content[i], b.root.Content[i+1]
	indent, _ := b.keyIndent(k)
	limit := b.yamlLineCount() + 1
	if i+2 < len(b.root.Content) {
		limit = b.root.Content[i+2].Line
	}
	want := b.fm.Properties[k.Value]
	endLine := b.minimalEnd(k.Line, limit, func(text []byte) bool {
		n := parseYAMLText(text)
		if n == nil || n.Kind != yaml.MappingNode || len(n.Content) != 2 || n.Content[0].Value != k.Value {
			return false
		}
		got, err := b.toValue(n.Content[1], 1)
		return err == nil && reflect.DeepEqual(got, want)
	})
	e := &fmEntry{
		key: k.Value, keyNode: k, val: v,
		start: b.lineStart(k.Line), end: b.lineStart(endLine),
		line: k.Line, endLine: endLine,
		indent: indent,
	}
	line := b.lineText(k.Line)
	if j := yamlKeyEnd(line, len(indent)); j > 0 {
		e.prefix = string(line[:j])
	}
	return e
}

// minimalEnd returns the first YAML line after the range that starts at
// line first and may run up to (not including) line limit: trailing blank
// and comment-only lines are left out unless same says the shorter range
// no longer holds the same value. The full range holds it by definition,
// and a range that holds it keeps holding it as trivia lines are added
// (they can only be part of the value up to some line), so the shortest
// one is found by binary search.
func (b *fmBlock) minimalEnd(first, limit int, same func(text []byte) bool) int {
	last := limit - 1
	for last > first && isYAMLTrivia(b.lineText(last)) {
		last--
	}
	start := b.lineStart(first)
	lo, hi := last+1, limit
	for lo < hi {
		mid := lo + (hi-lo)/2
		if same(b.src[start:b.lineStart(mid)]) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// isYAMLTrivia reports whether a line is blank or holds only a comment.
func isYAMLTrivia(line []byte) bool {
	line = bytes.TrimLeft(line, " \t")
	return len(line) == 0 || line[0] == '#'
}

// parseYAMLText parses text as a YAML document and returns its top
// node, or nil if it does not parse.
func parseYAMLText(text []byte) (top *yaml.Node) {
	defer func() {
		if recover() != nil {
			top = nil
		}
	}()
	var doc yaml.Node
	if yaml.Unmarshal(text, &doc) != nil || doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil
	}
	return doc.Content[0]
}

// yamlKeyEnd returns the offset just after the ':' that ends the key starting
// at offset i of line, or -1.
func yamlKeyEnd(line []byte, i int) int {
	if i >= len(line) {
		return -1
	}
	switch line[i] {
	case '"':
		for i++; i < len(line) && line[i] != '"'; i++ {
			if line[i] == '\\' {
				i++
			}
		}
		i++
	case '\'':
		for i++; i < len(line); i++ {
			if line[i] == '\'' {
				if i+1 < len(line) && line[i+1] == '\'' {
					i++
					continue
				}
				break
			}
		}
		i++
	default:
		for ; i < len(line); i++ {
			if line[i] == ':' && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t') {
				return i + 1
			}
		}
		return -1
	}
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i < len(line) && line[i] == ':' {
		return i + 1
	}
	return -1
}

// compactLists reports whether the block writes block lists with their
// dashes at the key's indentation ("tags:\n- a") rather than indented.
func (b *fmBlock) compactLists() bool {
	if b == nil || b.root == nil {
		return false
	}
	for i := 0; i+1 < len(b.root.Content); i += 2 {
		if c, ok := b.listCompact(b.root.Content[i], b.root.Content[i+1]); ok {
			return c
		}
	}
	return false
}

// listCompact reports, for a key whose value is a non-empty block list,
// whether the list's dashes sit at the key's indentation; ok is false for
// other values.
func (b *fmBlock) listCompact(k, v *yaml.Node) (compact, ok bool) {
	if v.Kind != yaml.SequenceNode || v.Style&yaml.FlowStyle != 0 || len(v.Content) == 0 {
		return false, false
	}
	item := b.lineText(v.Content[0].Line)
	lead := len(item) - len(bytes.TrimLeft(item, " \t"))
	return lead == k.Column-1, true
}
