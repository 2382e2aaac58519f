package note

import (
	"path"
	"strings"
	"time"
)

// Note is a parsed markdown note. Byte offsets index Raw; line numbers are
// 1-based and count from the first line of the file, frontmatter included.
type Note struct {
	// Path is the note path without extension, as given to Parse.
	Path string
	Raw  []byte

	// Frontmatter is the YAML block at the top of the note, or nil.
	Frontmatter *Frontmatter
	// FrontmatterErr is set when the block exists but is not valid YAML
	// (or uses anchors and aliases); the body is still parsed.
	FrontmatterErr error
	// BodyStart is the offset of the first byte after the frontmatter, or
	// after the byte order mark when the file starts with one and has no
	// frontmatter.
	BodyStart int
	// BodyLine is the line number of the first body line.
	BodyLine int

	Title       string
	TitleSource TitleSource
	Tags        []Tag
	Aliases     []string
	Properties  map[string]any
	Created     time.Time
	Modified    time.Time

	Headings []Heading
	Links    []Link
}

// TitleSource says where a note's title came from.
type TitleSource string

// Title sources, in order of precedence.
const (
	TitleFromFrontmatter TitleSource = "frontmatter"
	TitleFromHeading     TitleSource = "heading"
	TitleFromFileName    TitleSource = "filename"
)

// Tag is a tag as written (Name, without '#') and normalized for matching
// (Norm: lowercase). Nested tags keep their slashes: "Project/Alpha".
type Tag struct {
	Name string
	Norm string
}

// NewTag returns the tag for a name as written, with leading '#'s removed.
func NewTag(name string) Tag {
	name = strings.TrimLeft(strings.TrimSpace(name), "#")
	return Tag{Name: name, Norm: strings.ToLower(name)}
}

// Parse is ParseIn with UTC, for a caller that reads no dates of the note
// (its body, title or links).
func Parse(notePath string, src []byte) *Note {
	return ParseIn(notePath, src, time.UTC)
}

// ParseIn parses a note, reading the frontmatter's dates that have no zone
// in loc (see ParseDate). It never fails: a malformed frontmatter block is
// reported in FrontmatterErr and the rest of the note is still parsed.
func ParseIn(notePath string, src []byte, loc *time.Location) *Note {
	// A byte order mark is not part of the body (see bomLen): without
	// frontmatter, the body starts after it.
	n := &Note{Path: notePath, Raw: src, BodyStart: bomLen(src), BodyLine: 1}
	fm, err := parseFrontmatter(src, loc)
	if fm != nil {
		n.BodyStart = fm.End
		n.BodyLine = 1 + countLines(src[:fm.End])
	}
	if err != nil {
		n.FrontmatterErr = err
	} else if fm != nil {
		n.Frontmatter = fm
		n.Aliases = fm.Aliases
		n.Properties = fm.Properties
		n.Created, n.Modified = fm.Created, fm.Modified
	}

	b := scanBody(src, n.BodyStart, n.BodyLine)
	n.Headings, n.Links = b.Headings, b.Links

	var names []string
	if n.Frontmatter != nil {
		names = append(names, n.Frontmatter.Tags...)
	}
	n.Tags = uniqueTags(append(names, b.Tags...))

	switch {
	case n.Frontmatter != nil && n.Frontmatter.Title != "":
		n.Title, n.TitleSource = n.Frontmatter.Title, TitleFromFrontmatter
	case firstH1(n.Headings) != "":
		n.Title, n.TitleSource = firstH1(n.Headings), TitleFromHeading
	default:
		n.Title, n.TitleSource = path.Base(notePath), TitleFromFileName
	}
	return n
}

// HasTag reports whether the note has the tag or a tag nested under it,
// ignoring case: HasTag("project") holds for "Project/Alpha".
func (n *Note) HasTag(tag string) bool {
	want := NewTag(tag).Norm
	for _, t := range n.Tags {
		if t.Norm == want || strings.HasPrefix(t.Norm, want+"/") {
			return true
		}
	}
	return false
}

func uniqueTags(names []string) []Tag {
	seen := make(map[string]bool, len(names))
	tags := make([]Tag, 0, len(names))
	for _, name := range names {
		t := NewTag(name)
		if t.Norm == "" || seen[t.Norm] {
			continue
		}
		seen[t.Norm] = true
		tags = append(tags, t)
	}
	return tags
}

func firstH1(hs []Heading) string {
	for _, h := range hs {
		if h.Level == 1 {
			return h.Text
		}
	}
	return ""
}

func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}
