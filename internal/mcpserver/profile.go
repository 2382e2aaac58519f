package mcpserver

import (
	"slices"
)

// ProfileWikid is the default profile: wikid's own tools.
const ProfileWikid = "wikid"

// profiles by name.
var profiles = map[string]profile{
	ProfileWikid: {tools: allTools, instructions: instructions, words: words},
	"cairn":      {tools: cairnTools, instructions: cairnInstructions, words: cairnWords, plain: true},
	"braindrive": {tools: braindriveTools, instructions: braindriveInstructions, words: braindriveWords, plain: true},
	"wiki-ai":    {tools: wikiaiTools, instructions: wikiaiInstructions, words: wikiaiWords, plain: true},
	"obsidian":   {tools: obsidianTools, instructions: obsidianInstructions, words: obsidianWords, plain: true},
	"roux":       {tools: rouxTools, instructions: rouxInstructions, words: rouxWords, plain: true, errorText: rxError},
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
