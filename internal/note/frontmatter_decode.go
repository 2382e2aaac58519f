package note

import (
	"bytes"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wikid/wikid/internal/wikierr"

	"gopkg.in/yaml.v3"
)

// maxValueDepth bounds how deeply frontmatter values may nest. yaml.v3 has
// its own, much larger, limit; real notes never come close to either.
const maxValueDepth = 100

// yamlErrLine matches the position yaml.v3 puts in its error messages.
var yamlErrLine = regexp.MustCompile(`(?s)^yaml: line (\d+): (.*)$`)

// yamlUnknownAnchor matches yaml.v3's error for an alias to no anchor.
var yamlUnknownAnchor = regexp.MustCompile(`^unknown anchor '(.*)' referenced$`)

// yamlParserProblems are the messages of yaml.v3's parser (as opposed to its
// scanner). The parser reports 0-based lines where the scanner reports
// 1-based ones.
var yamlParserProblems = []string{
	"did not find expected",
	"found duplicate %",
	"found incompatible YAML document",
	"found undefined tag handle",
}

// yamlError turns an error from yaml.v3, whose lines count from the first
// line after the opening delimiter, into an *Error with the file line.
func (b *fmBlock) yamlError(err error) *wikierr.Error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if m := yamlErrLine.FindStringSubmatch(err.Error()); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
		for _, p := range yamlParserProblems {
			if strings.HasPrefix(msg, p) {
				line++
				break
			}
		}
	} else if m := yamlUnknownAnchor.FindStringSubmatch(msg); m != nil {
		// yaml.v3 names the alias but not where it is.
		if i := bytes.Index(b.src[b.contentStart:b.closeStart], []byte("*"+m[1])); i >= 0 {
			line = b.lineOf(b.contentStart + i)
		}
	} else if l := b.firstBadRuneLine(); l > 0 {
		// Reader errors (bad UTF-8, control characters) carry no line.
		line = l
	} else {
		// yaml.v3 leaves the line out when the problem is on the first line.
		line = 1
	}
	line = max(1, min(line, b.yamlLineCount()+1))
	return b.errorAt(line, "%s", msg)
}

// firstBadRuneLine returns the YAML line of the first byte that YAML does
// not allow in a stream (invalid UTF-8 or a control character), or 0.
func (b *fmBlock) firstBadRuneLine() int {
	content := b.src[b.contentStart:b.closeStart]
	for i := 0; i < len(content); {
		r, size := utf8.DecodeRune(content[i:])
		if (r == utf8.RuneError && size <= 1) || !yamlPrintable(r) {
			return b.lineOf(b.contentStart + i)
		}
		i += size
	}
	return 0
}

// yamlPrintable reports whether YAML 1.2 allows r in a stream.
func yamlPrintable(r rune) bool {
	switch {
	case r == '\t', r == '\n', r == '\r', r == 0x85:
		return true
	case r >= 0x20 && r <= 0x7E, r >= 0xA0 && r <= 0xD7FF:
		return true
	case r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
		return true
	}
	return false
}

// lineOf returns the YAML line holding offset off of the block.
func (b *fmBlock) lineOf(off int) int {
	l := 1
	for l < b.yamlLineCount() && b.lines[l] <= off {
		l++
	}
	return l
}

// toValue converts a node to a plain Go value: string, bool, int, float64,
// nil, []any or map[string]any. Timestamps and values that JSON cannot carry
// (.inf, .nan, integers beyond int64) stay the string written. Anchors and
// aliases are rejected without being followed, and so are duplicate keys
// and keys that are lists or mappings.
func (b *fmBlock) toValue(n *yaml.Node, depth int) (any, error) {
	if n.Anchor != "" {
		return nil, b.errorAt(n.Line, "anchors (&%s) are not allowed", n.Anchor)
	}
	if depth > maxValueDepth {
		return nil, b.errorAt(n.Line, "values nest more than %d levels deep", maxValueDepth)
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return scalarValue(n), nil
	case yaml.SequenceNode:
		list := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := b.toValue(c, depth+1)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		return list, nil
	case yaml.MappingNode:
		return b.toMap(n, depth)
	case yaml.AliasNode:
		return nil, b.errorAt(n.Line, "aliases (*%s) are not allowed", n.Value)
	}
	return nil, b.errorAt(n.Line, "unexpected YAML node")
}

// toMap converts a mapping node, checking its keys.
func (b *fmBlock) toMap(n *yaml.Node, depth int) (map[string]any, error) {
	if n.Anchor != "" {
		return nil, b.errorAt(n.Line, "anchors (&%s) are not allowed", n.Anchor)
	}
	m := make(map[string]any, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Anchor != "" {
			return nil, b.errorAt(k.Line, "anchors (&%s) are not allowed", k.Anchor)
		}
		switch k.Kind {
		case yaml.ScalarNode:
		case yaml.AliasNode:
			return nil, b.errorAt(k.Line, "aliases (*%s) are not allowed", k.Value)
		default:
			return nil, b.errorAt(k.Line, "a key must be a single value, not %s", yamlKindName(k))
		}
		if _, dup := m[k.Value]; dup {
			return nil, b.errorAt(k.Line, "key %q is defined twice", k.Value)
		}
		val, err := b.toValue(v, depth+1)
		if err != nil {
			return nil, err
		}
		m[k.Value] = val
	}
	return m, nil
}

// scalarValue converts a scalar node by its resolved tag.
func scalarValue(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		var v bool
		if n.Decode(&v) == nil {
			return v
		}
	case "!!int":
		var v int64
		if n.Decode(&v) == nil && v >= math.MinInt && v <= math.MaxInt {
			return int(v)
		}
	case "!!float":
		var v float64
		if n.Decode(&v) == nil && !math.IsInf(v, 0) && !math.IsNaN(v) {
			return v
		}
	}
	return n.Value
}
