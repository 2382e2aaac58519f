package mcpserver

import (
	"slices"

	"github.com/wikid/wikid/internal/profiles/braindrive"
	"github.com/wikid/wikid/internal/profiles/cairn"
	"github.com/wikid/wikid/internal/profiles/obsidian"
	"github.com/wikid/wikid/internal/profiles/roux"
	"github.com/wikid/wikid/internal/profiles/wikiai"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/tools"
)

// ProfileWikid is the default profile: wikid's own tools.
const ProfileWikid = "wikid"

// profiles by name.
var profiles = map[string]tool.Profile{
	ProfileWikid: tools.Profile(),
	"cairn":      cairn.Profile(),
	"braindrive": braindrive.Profile(),
	"wiki-ai":    wikiai.Profile(),
	"obsidian":   obsidian.Profile(),
	"roux":       roux.Profile(),
}

// Profiles lists the profile names, the default first.
func Profiles() []string {
	names := []string{ProfileWikid}
	for name := range profiles {
		if name != ProfileWikid {
			names = append(names, name)
		}
	}
	slices.Sort(names[1:])
	return names
}

// ToolNames lists the names of a profile's tools, those a wiki with
// semantic search adds included; none for an unknown profile.
func ToolNames(profile string) []string {
	p, ok := profiles[profile]
	if !ok {
		return nil
	}
	var names []string
	for _, t := range p.Tools() {
		names = append(names, t.Name)
	}
	return names
}
