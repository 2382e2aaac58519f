package mcpserver

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/wikid/wikid/internal/wiki"
)

// A profile is a tool set a client may ask for: wikid's own, or the exact
// contract of one of the systems users come from, so that a client, a
// prompt or an agent written for it works against wikid unchanged. A
// profile's tools translate arguments and results to and from wiki.Wiki;
// none re-implements a note operation.
type profile struct {
	tools        func() []*tool
	instructions string
	// words name the profile's own tools in the core's hints.
	words wiki.Words
	// plain profiles are a source system's: errors in text only, and
	// results as its tools give them (text, or structured content under
	// the seed's own output schema).
	plain bool
	// errorText, if set, renders a failed call's text from its code,
	// message and hint, as the source system words its errors.
	errorText func(code, message, hint string) string
}

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

// headSnapshot returns the snapshot of HEAD.
func headSnapshot(ctx context.Context, s *Server) (wiki.Snapshot, error) {
	head, err := s.w.Store().Head(ctx)
	if err != nil {
		return nil, err
	}
	return s.w.Store().Snapshot(ctx, head.Commit)
}

// fileOf returns the file of a note path at snap: the note with a
// markdown extension, "" when there is none. A tree lookup, where a read
// of the note would parse it.
func fileOf(ctx context.Context, snap wiki.Snapshot, notePath string) string {
	for _, ext := range []string{".md", ".markdown", ".mdx"} {
		if f, err := snap.Stat(ctx, notePath+ext); err == nil {
			return f.Path
		}
	}
	return ""
}

// plainJSON renders a seed's JSON response as the text of a result.
func plainJSON(v any) (string, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	return string(b), err
}

// seedObject is a seed's input schema: the properties it lists, those
// named in required required, and no word on other keys, which are
// ignored, as the seed's server ignores them.
func seedObject(required []string, props ...prop) *schema {
	for i := range props {
		props[i].Required = slices.Contains(required, props[i].Name)
	}
	return &schema{Type: "object", Props: props, Open: true, Unsaid: true}
}

// seedInt is an integer as a seed declares one, without bounds; the tool
// checks them.
func seedInt(desc string) *schema { return &schema{Type: "integer", Description: desc} }
