package note

import (
	"slices"
	"strings"
	"time"
	"unicode"

	"gopkg.in/yaml.v3"
)

// The keys that fill the named Frontmatter fields. Keys match exactly
// (case-sensitive); when several are present the first in the list wins.
var (
	fmTitleKeys    = []string{"title"}
	fmTagKeys      = []string{"tags", "tag"}
	fmAliasKeys    = []string{"aliases", "alias"}
	fmCreatedKeys  = []string{"created", "date created", "created_at"}
	fmModifiedKeys = []string{"modified", "updated", "date modified", "updated_at"}
)

// dateLayouts are the forms of a date in a note, tried in order: RFC 3339
// first, then the forms without a zone.
var dateLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05",
	"2006-01-02 15:04",
	time.DateOnly,
}

// fillFields sets Title, Tags and Aliases from b.root; fillDates sets the
// dates, which need a time zone.
func (b *fmBlock) fillFields() {
	fm := b.fm
	if _, v := b.firstKey(fmTitleKeys); v != nil && isYAMLText(v) {
		fm.Title = strings.TrimSpace(v.Value)
	}
	if _, v := b.firstKey(fmTagKeys); v != nil {
		fm.Tags = fmListNames(v, true)
	}
	if _, v := b.firstKey(fmAliasKeys); v != nil {
		fm.Aliases = fmListNames(v, false)
	}
}

// fillDates sets Created and Modified from b.root, reading dates without a
// zone in loc.
func (b *fmBlock) fillDates(loc *time.Location) {
	b.fm.Created = b.firstDate(fmCreatedKeys, loc)
	b.fm.Modified = b.firstDate(fmModifiedKeys, loc)
}

// value returns the index in root.Content of key and its value node, or
// (-1, nil).
func (b *fmBlock) value(key string) (int, *yaml.Node) {
	if b == nil || b.root == nil {
		return -1, nil
	}
	for i := 0; i+1 < len(b.root.Content); i += 2 {
		if b.root.Content[i].Value == key {
			return i, b.root.Content[i+1]
		}
	}
	return -1, nil
}

// firstKey returns the first of keys present in the block and its value.
func (b *fmBlock) firstKey(keys []string) (string, *yaml.Node) {
	for _, k := range keys {
		if _, v := b.value(k); v != nil {
			return k, v
		}
	}
	return "", nil
}

// firstDate returns the first of keys whose value parses as a date.
func (b *fmBlock) firstDate(keys []string, loc *time.Location) time.Time {
	for _, k := range keys {
		if _, v := b.value(k); v != nil && isYAMLText(v) {
			if t, ok := ParseDate(v.Value, loc); ok {
				return t
			}
		}
	}
	return time.Time{}
}

// ParseDate reads a date as a note's frontmatter writes it, and is the one
// reading of such a date: RFC 3339 (2024-06-01T10:30:00Z, with any offset)
// is the instant written; a form without a zone (2024-06-01,
// 2024-06-01T10:30[:00], 2024-06-01 10:30[:00]) is that wall time in loc, a
// date alone its midnight. Spaces around s are ignored. It reports false for
// anything else.
func ParseDate(s string, loc *time.Location) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, layout := range dateLayouts {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// isYAMLText reports whether n is a scalar other than null.
func isYAMLText(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() != "!!null"
}

// fmListNames reads a tags or aliases value: a list of scalars, or a single
// string. Tag strings split on commas and whitespace, alias strings on
// commas only. Tags lose their leading '#'s. Empty names are dropped; spelling
// is kept.
func fmListNames(n *yaml.Node, tags bool) []string {
	var raw []string
	switch {
	case n.Kind == yaml.SequenceNode:
		for _, c := range n.Content {
			if isYAMLText(c) {
				raw = append(raw, c.Value)
			}
		}
	case isYAMLText(n):
		raw = fmSplitNames(n.Value, tags)
	}
	var names []string
	for _, s := range raw {
		s = strings.TrimSpace(s)
		if tags {
			s = strings.TrimLeft(s, "#")
		}
		if s != "" {
			names = append(names, s)
		}
	}
	return names
}

// fmSplitNames splits a string of tags (on commas and whitespace) or of
// aliases (on commas).
func fmSplitNames(s string, tags bool) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return r == ',' || (tags && unicode.IsSpace(r))
	})
}

// FieldOf returns the Frontmatter field that key fills when present:
// "title", "tags", "aliases", "created" or "modified"; "" for any other key.
func FieldOf(key string) string {
	for _, f := range []struct {
		name string
		keys []string
	}{{"title", fmTitleKeys}, {"tags", fmTagKeys}, {"aliases", fmAliasKeys}, {"created", fmCreatedKeys}, {"modified", fmModifiedKeys}} {
		if slices.Contains(f.keys, key) {
			return f.name
		}
	}
	return ""
}
