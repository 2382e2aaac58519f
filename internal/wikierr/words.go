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
	}
)

// Refs returns every reference the core may write, so that a front end
// can check that its Words cover them.
func Refs() []string { return append(append([]string(nil), refOps...), refArgs...) }

// The marks around a reference in a string: control characters that no
// note path has, and that the core writes nowhere else.
const (
	refOpen  = '\x02'
	refClose = '\x03'
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

// markRefs returns format with each "{name}" that is a reference marked.
func markRefs(format string) string {
	if !strings.Contains(format, "{") {
		return format
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(format, '{')
		if i < 0 {
			b.WriteString(format)
			return b.String()
		}
		j := strings.IndexByte(format[i:], '}')
		if j < 0 {
			b.WriteString(format)
			return b.String()
		}
		name := format[i+1 : i+j]
		b.WriteString(format[:i])
		if known(name) {
			b.WriteByte(refOpen)
			b.WriteString(name)
			b.WriteByte(refClose)
		} else {
			b.WriteString(format[i : i+j+1])
		}
		format = format[i+j+1:]
	}
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
// word for both.
func (w Words) Say(s string) string {
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
