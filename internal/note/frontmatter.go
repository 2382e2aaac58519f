package note

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/wikid/wikid/internal/wikierr"

	"gopkg.in/yaml.v3"
)

// Frontmatter is a note's leading YAML block between "---" lines.
type Frontmatter struct {
	// Start and End are the byte range of the whole block, delimiters
	// included; End is where the body starts. Start is 3 when the file
	// begins with a UTF-8 byte order mark, and 0 otherwise.
	Start, End int
	// Properties holds every key, decoded to Go values.
	Properties map[string]any
	// Keys lists the top-level keys in document order.
	Keys []string
	// Title is the "title" key.
	Title string
	// Tags come from "tags" (or "tag"): a list, or a string split on commas
	// and whitespace; spelled as written, without leading '#'s.
	Tags []string
	// Aliases come from "aliases" (or "alias"): a list, or a string split
	// on commas.
	Aliases []string
	// Created is the first of "created", "date created", "created_at" that
	// reads as a date, and Modified the first of "modified", "updated",
	// "date modified", "updated_at"; zero when there is none. ParseDate
	// reads them, in the time zone given to ParseIn.
	Created, Modified time.Time
}

// fmBOM is the byte order mark some editors write at the top of a file.
var fmBOM = []byte("\xEF\xBB\xBF")

// bomLen is the one rule for a byte order mark, which every reader and
// writer of a note follows: a UTF-8 byte order mark at the top of the file
// is kept as it is and is not part of the note; the note, frontmatter
// first, starts after it. It returns the length of the mark, or 0.
func bomLen(src []byte) int {
	if bytes.HasPrefix(src, fmBOM) {
		return len(fmBOM)
	}
	return 0
}

// fmBlock is a frontmatter block together with what an edit needs to find
// its keys again: the YAML node tree and where each YAML line starts.
type fmBlock struct {
	fm  *Frontmatter
	src []byte
	// eol is the line ending of the opening delimiter: "\n" or "\r\n".
	eol string
	// contentStart is the offset of the first YAML byte (the line after the
	// opening delimiter); closeStart the offset of the closing delimiter.
	contentStart, closeStart int
	// lines holds the offset of each YAML line of the block, counted as
	// yaml.v3 counts them (LF, CRLF, a lone CR, NEL, LS and PS each end a
	// line), followed by closeStart. YAML line l starts at lines[l-1].
	lines []int
	// root is the top-level mapping, or nil for an empty block.
	root *yaml.Node
}

// parseFrontmatter finds and decodes the frontmatter block. It returns
// (nil, nil) when there is none. When the block exists but cannot be used
// (malformed YAML, a top level that is not a mapping, anchors or aliases,
// duplicate keys) it returns a *Frontmatter with only Start and End set, so
// that the caller knows where the body starts, and an *Error with code
// CodeInvalidParams and the file line of the problem. Dates without a zone
// are read in loc.
func parseFrontmatter(src []byte, loc *time.Location) (*Frontmatter, error) {
	b, err := scanFrontmatter(src)
	if b == nil {
		return nil, err
	}
	if b.root != nil {
		b.fillDates(loc)
	}
	return b.fm, err
}

// scanFrontmatter is parseFrontmatter keeping the node tree and line table
// for edits. It returns (nil, nil) when src has no frontmatter block, and a
// block with only the byte range filled in along with the error when the
// block is malformed.
func scanFrontmatter(src []byte) (b *fmBlock, err error) {
	b, ok := findBlock(src)
	if !ok {
		return nil, nil
	}
	defer func() {
		// yaml.v3 is not supposed to panic on any input; if it does, the
		// note is still readable and the block is reported as malformed.
		if r := recover(); r != nil {
			b.root = nil
			b.fm = &Frontmatter{Start: b.fm.Start, End: b.fm.End}
			err = b.errorAt(1, "cannot be read as YAML")
		}
	}()
	if err := b.decode(); err != nil {
		b.root = nil
		b.fm = &Frontmatter{Start: b.fm.Start, End: b.fm.End}
		return b, err
	}
	return b, nil
}

// findBlock locates the delimiters. A block opens at the top of the file
// (after an optional byte order mark) with a line that is exactly "---" and
// closes at the next line that is "---" or "..."; trailing spaces and tabs
// are allowed on both, and lines may end in LF or CRLF. Without a closing
// line there is no block.
func findBlock(src []byte) (*fmBlock, bool) {
	start := bomLen(src)
	first, next, eol := fmLineAt(src, start)
	if !isFmDelimiter(first, "---") || eol == "" {
		return nil, false
	}
	for p := next; p < len(src); {
		line, n, _ := fmLineAt(src, p)
		if isFmDelimiter(line, "---") || isFmDelimiter(line, "...") {
			b := &fmBlock{
				fm:           &Frontmatter{Start: start, End: n},
				src:          src,
				eol:          eol,
				contentStart: next,
				closeStart:   p,
			}
			b.lines = yamlLines(src, next, p)
			return b, true
		}
		p = n
	}
	return nil, false
}

// fmLineAt returns the line starting at p without its line ending, the offset
// of the next line, and the line ending ("\n", "\r\n", or "" at EOF).
func fmLineAt(src []byte, p int) (line []byte, next int, eol string) {
	i := bytes.IndexByte(src[p:], '\n')
	if i < 0 {
		return bytes.TrimSuffix(src[p:], []byte("\r")), len(src), ""
	}
	line, next, eol = src[p:p+i], p+i+1, "\n"
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line, eol = line[:n-1], "\r\n"
	}
	return line, next, eol
}

func isFmDelimiter(line []byte, delim string) bool {
	return string(bytes.TrimRight(line, " \t")) == delim
}

// yamlLines returns the offsets at which YAML lines start in src[start:end],
// followed by end.
func yamlLines(src []byte, start, end int) []int {
	lines := []int{start}
	for i := start; i < end; {
		n := yamlBreakLen(src[i:end])
		if n == 0 {
			i++
			continue
		}
		i += n
		if i < end {
			lines = append(lines, i)
		}
	}
	return append(lines, end)
}

// yamlBreakLen returns the length of the line break at the start of b, or 0.
func yamlBreakLen(b []byte) int {
	switch {
	case len(b) == 0:
		return 0
	case b[0] == '\r' && len(b) > 1 && b[1] == '\n':
		return 2
	case b[0] == '\r' || b[0] == '\n':
		return 1
	case bytes.HasPrefix(b, []byte("\xC2\x85")): // NEL
		return 2
	case bytes.HasPrefix(b, []byte("\xE2\x80\xA8")), bytes.HasPrefix(b, []byte("\xE2\x80\xA9")): // LS, PS
		return 3
	}
	return 0
}

// yamlLineCount is the number of YAML lines in the block.
func (b *fmBlock) yamlLineCount() int { return len(b.lines) - 1 }

// lineStart returns the offset of YAML line l (1-based); line count+1 is the
// closing delimiter. Out-of-range lines are clamped.
func (b *fmBlock) lineStart(l int) int {
	switch {
	case l < 1:
		return b.contentStart
	case l > b.yamlLineCount():
		return b.closeStart
	}
	return b.lines[l-1]
}

// lineText returns YAML line l without its line break.
func (b *fmBlock) lineText(l int) []byte {
	start, end := b.lineStart(l), b.lineStart(l+1)
	text := b.src[start:end]
	for i := range text {
		if yamlBreakLen(text[i:]) > 0 {
			return text[:i]
		}
	}
	return text
}

// fileLine returns the 1-based file line of YAML line l: lines in the file
// are counted by LF, as Note.BodyLine counts them.
func (b *fmBlock) fileLine(l int) int {
	if l < 1 {
		return 1 + bytes.Count(b.src[:b.fm.Start], []byte("\n"))
	}
	return 1 + bytes.Count(b.src[:b.lineStart(l)], []byte("\n"))
}

// errorAt returns the CodeInvalidParams error for a problem on YAML line l
// (0 for the opening delimiter).
func (b *fmBlock) errorAt(l int, format string, args ...any) *wikierr.Error {
	line := b.fileLine(l)
	return &wikierr.Error{
		Code:    wikierr.CodeInvalidParams,
		Message: fmt.Sprintf("frontmatter: line %d: %s", line, fmt.Sprintf(format, args...)),
		Hint:    "fix the YAML between the --- lines at the top of the note",
		Line:    line,
	}
}

// decode parses the YAML text and fills b.root and b.fm.
func (b *fmBlock) decode() error {
	content := b.src[b.contentStart:b.closeStart]
	dec := yaml.NewDecoder(bytes.NewReader(content))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			b.fm.Properties = map[string]any{}
			return nil // empty, or comments only
		}
		return b.yamlError(err)
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == nil:
		return b.errorAt(extra.Line, "holds more than one YAML document")
	case !errors.Is(err, io.EOF):
		return b.yamlError(err)
	}
	top := &doc
	if top.Kind == yaml.DocumentNode {
		if len(top.Content) == 0 {
			b.fm.Properties = map[string]any{}
			return nil
		}
		top = top.Content[0]
	}
	if top.Kind != yaml.MappingNode {
		return b.errorAt(top.Line, "expected key: value pairs, found %s", yamlKindName(top))
	}
	props, err := b.toMap(top, 0)
	if err != nil {
		return err
	}
	b.root = top
	b.fm.Properties = props
	for i := 0; i < len(top.Content); i += 2 {
		b.fm.Keys = append(b.fm.Keys, top.Content[i].Value)
	}
	b.fillFields()
	return nil
}

func yamlKindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return fmt.Sprintf("the value %q", n.Value)
	case yaml.AliasNode:
		return "an alias"
	case yaml.MappingNode:
		if n.ShortTag() == "!!set" {
			return "a set"
		}
		return "a mapping"
	}
	return "something else"
}
