package mcpserver

import (
	"slices"

	"github.com/wikid/wikid/internal/tool"
)

// ProfileWikid is the name of the default profile, wikid's own; the
// program hands the server the table that holds it (Options.Profiles).
const ProfileWikid = "wikid"

// Profiles is a table of profiles by name, the tool sets a server may
// serve: the program builds it, and the server knows none of them.
type Profiles map[string]tool.Profile

// Names lists the profile names, the default first.
func (t Profiles) Names() []string {
	var names []string
	for name := range t {
		if name != ProfileWikid {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	if _, ok := t[ProfileWikid]; ok {
		names = append([]string{ProfileWikid}, names...)
	}
	return names
}

// ToolNames lists the names of a profile's tools, those a wiki with
// semantic search adds included; none for an unknown profile.
func (t Profiles) ToolNames(profile string) []string {
	p, ok := t[profile]
	if !ok {
		return nil
	}
	var names []string
	for _, x := range p.Tools() {
		names = append(names, x.Name)
	}
	return names
}
