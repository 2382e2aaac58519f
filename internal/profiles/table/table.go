// Package table is the table of the profiles wikid serves, by the name
// --profile and /mcp/NAME give: wikid's own, the default, and the seeds'.
// The program serves it, and the suites that serve a wiki in their own
// process serve the same one.
package table

import (
	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/profiles/braindrive"
	"github.com/wikid/wikid/internal/profiles/cairn"
	"github.com/wikid/wikid/internal/profiles/obsidian"
	"github.com/wikid/wikid/internal/profiles/roux"
	"github.com/wikid/wikid/internal/profiles/wikiai"
	"github.com/wikid/wikid/internal/profiles/wikid"
)

// Profiles returns the table of the profiles wikid serves, by name.
func Profiles() mcpserver.Profiles {
	return mcpserver.Profiles{
		mcpserver.ProfileWikid: wikid.Profile(),
		"cairn":                cairn.Profile(),
		"braindrive":           braindrive.Profile(),
		"wiki-ai":              wikiai.Profile(),
		"obsidian":             obsidian.Profile(),
		"roux":                 roux.Profile(),
	}
}
