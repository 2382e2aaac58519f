package note

import (
	"bytes"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wikid/wikid/internal/wikierr"

	"gopkg.in/yaml.v3"
)

// MetaChange is a change to a note's frontmatter. Nil slices and a nil
// Title leave a field unchanged; a non-nil empty slice clears it.
type MetaChange struct {
	// Title sets the "title" key.
	Title *string
	// Tags replaces all tags; it cannot be combined with AddTags or
	// RemoveTags. Tags live under the "tags" key, or "tag" when the note
	// already uses that one. Leading '#'s are dropped.
	Tags       []string
	AddTags    []string
	RemoveTags []string
	// Aliases replaces the aliases, under "aliases" (or an existing "alias").
	Aliases []string
	// Set maps keys to new values (any JSON value: nil, string, bool,
	// number, slice, map with string keys; also json.Number and time.Time).
	// Whole numbers are written as integers, and strings that read as dates
	// are written unquoted.
	Set map[string]any
	// Unset removes keys; a missing key is ignored.
	Unset []string
}

// maxMetaKeyLen bounds the length of a key that Set may create: longer keys
// cannot be written as plain YAML keys.
const maxMetaKeyLen = 256

// UpdateMetadata returns src with the frontmatter changed as ch says.
//
// Only the lines of the keys that change are rewritten; every other byte of
// the file, comments and blank lines included, is kept. A key's lines run
// from its key line to the last line of its value; comment and blank lines
// after the value belong to what follows, so they stay, and so does a
// comment above a key that is removed. A changed key keeps its position and
// the bytes of its key (quoting included); new keys go at the end of the
// block, in the order title, tags, aliases, then Set keys sorted. A note
// without frontmatter gets a new block at the top. The file's line ending
// (LF or CRLF) is kept. Tags: RemoveTags applies before AddTags, both match
// ignoring case and are idempotent; a block list of tags gains or loses
// just the item lines, a flow list or a string of tags is rewritten on its
// line in the same style, and removing the last tag leaves "tags: []".
// A change that changes nothing returns src itself.
//
// It returns an *Error with code CodeInvalidParams when the change is not
// valid (Tags with AddTags or RemoveTags, an empty tag or one holding
// whitespace or a comma, the same key changed twice, a value that cannot be
// written as YAML), when the frontmatter is malformed (with its line), or
// when the frontmatter's layout does not allow key-by-key edits (a
// top-level key that does not start its own line). It returns CodeInternal
// if the result would not read back as intended; src is then not changed.
func UpdateMetadata(src []byte, ch MetaChange) ([]byte, error) {
	p, err := newMetaPlan(ch)
	if err != nil {
		return nil, err
	}
	b, err := scanFrontmatter(src)
	if err != nil {
		return nil, err
	}
	ed, err := newMetaEditor(src, b)
	if err != nil {
		return nil, err
	}
	if err := ed.apply(p); err != nil {
		return nil, err
	}
	out := ed.output()
	if bytes.Equal(out, src) {
		return src, nil
	}
	if err := ed.verify(out); err != nil {
		return nil, err
	}
	return out, nil
}

// metaPlan is a validated MetaChange with its values encoded.
type metaPlan struct {
	title       *yaml.Node
	replaceTags bool
	tags        []string
	addTags     []string
	removeTags  []string
	setAliases  bool
	aliases     []string
	set         map[string]*yaml.Node
	setKeys     []string // sorted
	unset       []string
}

func newMetaPlan(ch MetaChange) (*metaPlan, error) {
	p := &metaPlan{set: map[string]*yaml.Node{}}
	if ch.Tags != nil && (len(ch.AddTags) > 0 || len(ch.RemoveTags) > 0) {
		return nil, wikierr.Errorf(wikierr.CodeInvalidParams, "replacing all tags cannot be combined with adding or removing tags").
			WithHint("pass either the full list of tags, or the tags to add and remove")
	}
	var err error
	if ch.Title != nil {
		if p.title, err = yamlString(*ch.Title); err != nil {
			return nil, wikierr.Errorf(wikierr.CodeInvalidParams, "title: %v", err)
		}
	}
	p.replaceTags = ch.Tags != nil
	if p.tags, err = normalizeTags(ch.Tags); err != nil {
		return nil, err
	}
	if p.addTags, err = normalizeTags(ch.AddTags); err != nil {
		return nil, err
	}
	if p.removeTags, err = normalizeTags(ch.RemoveTags); err != nil {
		return nil, err
	}
	p.setAliases = ch.Aliases != nil
	if p.aliases, err = normalizeAliases(ch.Aliases); err != nil {
		return nil, err
	}
	for k, v := range ch.Set {
		if err := checkMetaKey(k); err != nil {
			return nil, err
		}
		n, err := yamlValue(v, 0)
		if err != nil {
			return nil, wikierr.Errorf(wikierr.CodeInvalidParams, "value of %q cannot be written as YAML: %v", k, err)
		}
		p.set[k] = n
		p.setKeys = append(p.setKeys, k)
	}
	sort.Strings(p.setKeys)
	seen := map[string]bool{}
	for _, k := range ch.Unset {
		if err := checkMetaKey(k); err != nil {
			return nil, err
		}
		if _, ok := p.set[k]; ok {
			return nil, wikierr.Errorf(wikierr.CodeInvalidParams, "key %q is both set and unset", k)
		}
		if !seen[k] {
			seen[k] = true
			p.unset = append(p.unset, k)
		}
	}
	return p, nil
}

// normalizeTags trims tags, drops leading '#'s, rejects empty tags and
// tags holding whitespace or commas, and drops repeats (ignoring case).
func normalizeTags(tags []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, raw := range tags {
		t := strings.TrimLeft(strings.TrimSpace(raw), "#")
		switch {
		case t == "":
			return nil, wikierr.Errorf(wikierr.CodeInvalidParams, "tag %q is empty", raw)
		case !utf8.ValidString(t):
			return nil, wikierr.Errorf(wikierr.CodeInvalidParams, "tag %q is not valid UTF-8", raw)
		case strings.ContainsFunc(t, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) || r == ',' }):
			return nil, wikierr.Errorf(wikierr.CodeInvalidParams, "tag %q holds whitespace or a comma", raw).
				WithHint("write nested tags with '/' (project/alpha) and words with '-' or '_'")
		}
		if k := strings.ToLower(t); !seen[k] {
			seen[k] = true
			out = append(out, t)
		}
	}
	return out, nil
}

// normalizeAliases trims aliases and rejects empty ones and ones that
// hold line breaks; exact repeats are dropped.
func normalizeAliases(aliases []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, raw := range aliases {
		a := strings.TrimSpace(raw)
		switch {
		case a == "":
			return nil, wikierr.Errorf(wikierr.CodeInvalidParams, "alias %q is empty", raw)
		case !utf8.ValidString(a) || strings.ContainsFunc(a, unicode.IsControl) || hasYAMLBreak(a):
			return nil, wikierr.Errorf(wikierr.CodeInvalidParams, "alias %q holds a line break or a control character", raw)
		}
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out, nil
}

// checkMetaKey rejects keys that cannot be written as one plain YAML key line.
func checkMetaKey(k string) error {
	switch {
	case k == "":
		return wikierr.Errorf(wikierr.CodeInvalidParams, "a frontmatter key is empty")
	case len(k) > maxMetaKeyLen:
		return wikierr.Errorf(wikierr.CodeInvalidParams, "frontmatter key %.20q... is longer than %d bytes", k, maxMetaKeyLen)
	case !utf8.ValidString(k) || strings.ContainsFunc(k, unicode.IsControl) || hasYAMLBreak(k):
		return wikierr.Errorf(wikierr.CodeInvalidParams, "frontmatter key %q holds a line break or a control character", k)
	}
	return nil
}

func hasYAMLBreak(s string) bool {
	return strings.ContainsAny(s, "\r\n\u0085\u2028\u2029")
}
