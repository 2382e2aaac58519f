// Package render words the wiki's results as text, once for every front
// end: the MCP tools give it to models and the command line to people.
//
// A rendering may name an operation or an argument ("more with {cursor}");
// it names it as a reference (see wiki.Sayf), and each front end says the
// text with its own Words, so the same rendering reads "pass cursor" in a
// tool's result and "pass --cursor" at the command line.
package render

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

// TruncatedMark ends a text that was cut.
const TruncatedMark = "... [truncated]"

// Builder accumulates a rendering line by line.
type Builder struct{ b strings.Builder }

// Line adds a line: format marked as wiki.Sayf marks it, with args.
func (b *Builder) Line(format string, args ...any) {
	b.b.WriteString(wiki.Sayf(format, args...))
	b.b.WriteByte('\n')
}

// WriteString adds s as it is.
func (b *Builder) WriteString(s string) { b.b.WriteString(s) }

// String returns the rendering without its trailing newlines; its
// references are still to be said (see wiki.Words.Say).
func (b *Builder) String() string { return strings.TrimRight(b.b.String(), "\n") }

// Plural returns "1 note", "2 notes".
func Plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// Sentence ends s with exactly one period.
func Sentence(s string) string {
	s = strings.TrimRight(strings.TrimSpace(s), ".")
	if s == "" {
		return s
	}
	return s + "."
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// ShortID abbreviates a commit or blob id for the text rendering; the
// structured content always has the full id.
func ShortID(id string) string {
	if len(id) > 7 {
		return id[:7]
	}
	return id
}

// Time renders a time: the date alone at midnight UTC (a date from the
// frontmatter), else RFC 3339.
func Time(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	if u := t.UTC(); u.Hour() == 0 && u.Minute() == 0 && u.Second() == 0 && u.Nanosecond() == 0 {
		return u.Format(time.DateOnly)
	}
	return t.Format(time.RFC3339)
}

// tagList renders tags for a header line.
func tagList(tags []string) string {
	if len(tags) == 0 {
		return "(none)"
	}
	return strings.Join(tags, ", ")
}

// Value renders a frontmatter value on one line.
func Value(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// datesText renders a note's dates for a header line, with their sources:
// "created 2024-01-02 (frontmatter) · modified 2024-03-12T09:30:00Z (git)".
func datesText(created *time.Time, createdSource string, modified *time.Time, modifiedSource string) string {
	var parts []string
	add := func(name string, t *time.Time, source string) {
		if t == nil {
			return
		}
		part := name + " " + Time(*t)
		if source != "" {
			part += " (" + source + ")"
		}
		parts = append(parts, part)
	}
	add("created", created, createdSource)
	add("modified", modified, modifiedSource)
	return strings.Join(parts, " · ")
}

// localChangesText renders the uncommitted notes of a wiki's status.
func localChangesText(b *Builder, lc *wiki.LocalChanges) {
	if lc != nil && (lc.Modified > 0 || lc.Untracked > 0) {
		bound := ""
		if lc.Partial {
			bound = "at least "
		}
		b.Line("Uncommitted in the checkout (the tools show the committed notes only; commit with git to include them):")
		if lc.Modified > 0 {
			b.Line("- %s%s modified: %s%s", bound, Plural(lc.Modified, "note"), strings.Join(lc.ModifiedPaths, ", "), more(lc.Modified, len(lc.ModifiedPaths)))
		}
		if lc.Untracked > 0 {
			b.Line("- %s%s untracked: %s%s", bound, Plural(lc.Untracked, "note"), strings.Join(lc.UntrackedPaths, ", "), more(lc.Untracked, len(lc.UntrackedPaths)))
		}
	} else if lc != nil {
		b.Line("Checkout: no uncommitted changes to notes.")
	}
}

// more says how many of n items a list of shown leaves out: ", and 3 more".
func more(n, shown int) string {
	if n <= shown {
		return ""
	}
	return fmt.Sprintf(", and %d more", n-shown)
}

func hasContent(lv wiki.NeighborLevel) bool {
	for _, n := range lv.Notes {
		if n.Content != "" {
			return true
		}
	}
	return false
}

// verb picks the singular or plural form for n.
func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// MissingVersion is what a rendering says of a version missing from the
// repository.
const MissingVersion = "a version is missing from this repository (a partial clone?)"

// lines renders added and deleted line counts.
func lines(add, del int, unknown bool) string {
	switch {
	case unknown:
		return "lines unknown: " + MissingVersion
	case add < 0:
		return "binary"
	}
	return fmt.Sprintf("+%d -%d", add, del)
}

// oneLine folds a snippet onto one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
