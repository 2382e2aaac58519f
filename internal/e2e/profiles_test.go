package e2e_test

import (
	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/profiles/braindrive"
	"github.com/wikid/wikid/internal/profiles/cairn"
	"github.com/wikid/wikid/internal/profiles/obsidian"
	"github.com/wikid/wikid/internal/profiles/roux"
	"github.com/wikid/wikid/internal/profiles/wikiai"
	"github.com/wikid/wikid/internal/profiles/wikid"
)

// profileTable is the program's table of profiles, as cmd/wikid builds
// it, for the suites that serve a wiki in the test's process.
func profileTable() mcpserver.Profiles {
	return mcpserver.Profiles{
		mcpserver.ProfileWikid: wikid.Profile(),
		"cairn":                cairn.Profile(),
		"braindrive":           braindrive.Profile(),
		"wiki-ai":              wikiai.Profile(),
		"obsidian":             obsidian.Profile(),
		"roux":                 roux.Profile(),
	}
}
