package mcpserver

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// maxItemChars is how much text one item of a list carries (a snippet, a
// line); more is cut and marked.
const maxItemChars = 500

// truncatedMark ends a text that was cut.
const truncatedMark = "... [truncated]"

// shortID abbreviates a commit or blob id for the text rendering; the
// structured content always has the full id.
func shortID(id string) string {
	if len(id) > 7 {
		return id[:7]
	}
	return id
}

// fmtTime renders a time: the date alone at midnight UTC (a date from the
// frontmatter), else RFC 3339.
func fmtTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	if u := t.UTC(); u.Hour() == 0 && u.Minute() == 0 && u.Second() == 0 && u.Nanosecond() == 0 {
		return u.Format(time.DateOnly)
	}
	return t.Format(time.RFC3339)
}

// clip cuts s to n characters, marking the cut.
func clip(s string, n int) (string, bool) {
	if utf8.RuneCountInString(s) <= n {
		return s, false
	}
	i, count := 0, 0
	for i = range s {
		if count == n {
			break
		}
		count++
	}
	return s[:i] + truncatedMark, true
}

// plural returns "1 note", "2 notes".
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// tagList renders tags for a header line.
func tagList(tags []string) string {
	if len(tags) == 0 {
		return "(none)"
	}
	return strings.Join(tags, ", ")
}

// value renders a frontmatter value on one line.
func value(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// textBuilder accumulates a text rendering line by line.
type textBuilder struct{ strings.Builder }

func (b *textBuilder) line(format string, args ...any) {
	fmt.Fprintf(&b.Builder, format, args...)
	b.WriteByte('\n')
}

func (b *textBuilder) String() string { return strings.TrimRight(b.Builder.String(), "\n") }

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
