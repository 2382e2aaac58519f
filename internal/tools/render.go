package tools

import (
	"github.com/wikid/wikid/internal/tool"
)

// maxItemChars is how much text one item of a list carries (a snippet, a
// line); more is cut and marked.
const maxItemChars = 500

// dateTime is a date and time in a result.
func dateTime(desc string) *tool.Schema {
	return &tool.Schema{Type: "string", Format: "date-time", Description: desc}
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
