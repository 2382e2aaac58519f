package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// maxItemChars is how much text one item of a list carries (a snippet, a
// line); more is cut and marked.
const maxItemChars = 500

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

func (b *textBuilder) String() string { return words.Say(strings.TrimRight(b.Builder.String(), "\n")) }

// dateTime is a date and time in a result.
func dateTime(desc string) *tool.Schema {
	return &tool.Schema{Type: "string", Format: "date-time", Description: desc}
}

// datesText renders a note's dates for a header line, with their sources:
// "created 2024-01-02 (frontmatter) · modified 2024-03-12T09:30:00Z (git)".
func datesText(created *time.Time, createdSource string, modified *time.Time, modifiedSource string) string {
	var parts []string
	add := func(name string, t *time.Time, source string) {
		if t == nil {
			return
		}
		part := name + " " + fmtTime(*t)
		if source != "" {
			part += " (" + source + ")"
		}
		parts = append(parts, part)
	}
	add("created", created, createdSource)
	add("modified", modified, modifiedSource)
	return strings.Join(parts, " · ")
}

// localChangesText renders the uncommitted notes of a wiki_status.
func localChangesText(b *textBuilder, lc *wiki.LocalChanges) {
	if lc != nil && (lc.Modified > 0 || lc.Untracked > 0) {
		bound := ""
		if lc.Partial {
			bound = "at least "
		}
		b.line("Uncommitted in the checkout (the tools show the committed notes only; commit with git to include them):")
		if lc.Modified > 0 {
			b.line("- %s%s modified: %s%s", bound, tool.Plural(lc.Modified, "note"), strings.Join(lc.ModifiedPaths, ", "), more(lc.Modified, len(lc.ModifiedPaths)))
		}
		if lc.Untracked > 0 {
			b.line("- %s%s untracked: %s%s", bound, tool.Plural(lc.Untracked, "note"), strings.Join(lc.UntrackedPaths, ", "), more(lc.Untracked, len(lc.UntrackedPaths)))
		}
	} else if lc != nil {
		b.line("Checkout: no uncommitted changes to notes.")
	}
}

// more says how many of n items a list of shown leaves out: ", and 3 more".
func more(n, shown int) string {
	if n <= shown {
		return ""
	}
	return fmt.Sprintf(", and %d more", n-shown)
}

// dateProps are the schema properties of wiki.Dates.
func dateProps() []tool.Prop {
	source := func(desc string) *tool.Schema {
		return tool.Enum(desc, "frontmatter", "git")
	}
	return []tool.Prop{
		tool.Opt("created", dateTime("When the note was created: the frontmatter's date, else its first commit's time.")),
		tool.Opt("created_source", source("Where created comes from.")),
		tool.Opt("modified", dateTime("When the note was last changed: the frontmatter's date, else its last commit's time.")),
		tool.Opt("modified_source", source("Where modified comes from.")),
	}
}
