package wikierr

import (
	"fmt"
	"strings"
)

// Messages, hints and warnings tell a caller what to do next, and each
// front end has its own words for it: an MCP profile names its tools and
// arguments, the command line its commands and flags, a web page its
// buttons. The core therefore writes a reference where such a word goes,
// "{restore}" in a format string, and each front end words the references
// with its Words as it renders the text. Only the format's own references
// are marked, never the arguments formatted into it, so a note called
// "{restore}" stays as it is.
//
// A part of a message that only a front end with a certain argument can
// follow is written between "{(" and ")}": "matches %s{(, or set
// {expected_matches} to %d to replace every one)}". A front end whose
// word for a reference in such a part is "" has no such thing, and Say
// leaves the whole part out; the others say it without the marks. Parts
// do not nest.

// The references the core may write, by what they name.
var (
	// Operations: a front end words each as its tool, command or page.
	refOps = []string{
		"read", "write", "edit", "metadata", "delete", "move", "apply",
		"list", "search", "resolve", "grep", "links", "broken_links",
		"history", "diff", "blame", "activity", "restore", "revert",
		"status", "daily", "tags", "sync",
	}
	// Arguments and settings, each as the front end spells it.
	refArgs = []string{
		"expected_version", "overwrite", "regex_off", "read_only", "version",
		// the new path of a move; the count of find's matches of a
		// replace; the position of an edit in a list of them ("{edits}[2]");
		// a page's cursor as an argument, and the next page's as a result.
		"new_path", "expected_matches", "edits", "cursor", "next_cursor",
		// how many items a page holds; where a read continues; a move's
		// updating of the links to the notes moved.
		"limit", "offset", "update_links",
	}
)

// Refs returns every reference the core may write, so that a front end
// can check that its Words cover them.
func Refs() []string { return append(append([]string(nil), refOps...), refArgs...) }

// The marks around a reference, and around an optional part, in a
// string: control characters that no note path has, and that the core
// writes nowhere else.
const (
	refOpen  = '\x02'
	refClose = '\x03'
	optOpen  = '\x04'
	optClose = '\x05'
)

// known reports whether name is a reference.
func known(name string) bool {
	for _, r := range refOps {
		if r == name {
			return true
		}
	}
	for _, r := range refArgs {
		if r == name {
			return true
		}
	}
	return false
}

// markRefs returns format with each "{name}" that is a reference marked,
// and each optional part, "{(...)}".
func markRefs(format string) string {
	if !strings.Contains(format, "{") {
		return format
	}
	var b strings.Builder
	b.Grow(len(format))
	inPart := false
	for i := 0; i < len(format); {
		switch {
		case !inPart && strings.HasPrefix(format[i:], "{(") && strings.Contains(format[i+2:], ")}"):
			b.WriteByte(optOpen)
			inPart = true
			i += 2
		case inPart && strings.HasPrefix(format[i:], ")}"):
			b.WriteByte(optClose)
			inPart = false
			i += 2
		case format[i] == '{':
			if j := strings.IndexByte(format[i:], '}'); j > 0 && known(format[i+1:i+j]) {
				b.WriteByte(refOpen)
				b.WriteString(format[i+1 : i+j])
				b.WriteByte(refClose)
				i += j + 1
				continue
			}
			b.WriteByte('{')
			i++
		default:
			b.WriteByte(format[i])
			i++
		}
	}
	return b.String()
}

// Sayf formats a message, hint or warning whose format may hold
// references; a front end words it with Words.Say.
func Sayf(format string, args ...any) string {
	format = markRefs(format)
	if len(args) == 0 && !strings.Contains(format, "%") {
		return format
	}
	return fmt.Sprintf(format, args...)
}

// Words is a front end's wording of the references: its word for each.
type Words map[string]string

// Say returns s with every reference in it worded; a reference Words has
// no word for is written as its name. A reference joined to the one
// before it by " or " or ", " and worded the same is left out, so that
// "{search} or {resolve}" reads "wikid search" where a front end has one
// word for both. An optional part holding a reference worded "" is left
// out; the others are said as the rest.
func (w Words) Say(s string) string {
	if strings.IndexByte(s, optOpen) >= 0 {
		s = w.parts(s)
	}
	i := strings.IndexByte(s, refOpen)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	last := ""
	for i >= 0 {
		j := strings.IndexByte(s[i:], refClose)
		if j < 0 {
			break
		}
		name := s[i+1 : i+j]
		word, ok := w[name]
		if !ok {
			word = name
		}
		if sep := s[:i]; last != "" && word == last && (sep == " or " || sep == ", ") {
			// the same word again: leave out the separator and the word
		} else {
			b.WriteString(sep)
			b.WriteString(word)
		}
		last = word
		s = s[i+j+1:]
		i = strings.IndexByte(s, refOpen)
	}
	b.WriteString(s)
	return b.String()
}

// parts returns s with each optional part either left out, when it holds
// a reference w words as "", or kept without its marks.
func (w Words) parts(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for {
		i := strings.IndexByte(s, optOpen)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i+1:]
		j := strings.IndexByte(s, optClose)
		if j < 0 {
			j = len(s)
		}
		if part := s[:j]; w.follows(part) {
			b.WriteString(part)
		}
		if j < len(s) {
			j++
		}
		s = s[j:]
	}
}

// follows reports whether an optional part is for the front end: it words
// none of the part's references as "".
func (w Words) follows(part string) bool {
	for {
		i := strings.IndexByte(part, refOpen)
		if i < 0 {
			return true
		}
		part = part[i+1:]
		j := strings.IndexByte(part, refClose)
		if j < 0 {
			return true
		}
		if word, ok := w[part[:j]]; ok && word == "" {
			return false
		}
		part = part[j+1:]
	}
}

// Missing returns the references w has no word for.
func (w Words) Missing() []string {
	var missing []string
	for _, r := range Refs() {
		if _, ok := w[r]; !ok {
			missing = append(missing, r)
		}
	}
	return missing
}
