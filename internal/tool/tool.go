package tool

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"unicode/utf8"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/wiki"
)

// The tool groups that Options.Groups selects from.
const (
	GroupNotes   = "notes"   // read, write, edit, metadata, delete, daily notes, batches
	GroupSearch  = "search"  // search, grep, list, tags, recent changes, resolve, random
	GroupLinks   = "links"   // links, paths, hubs and broken links
	GroupHistory = "history" // history, diffs, blame, activity, restore, revert
	GroupWiki    = "wiki"    // wiki_status
)

// Groups lists every tool group.
var Groups = []string{GroupNotes, GroupSearch, GroupLinks, GroupHistory, GroupWiki}

// Tool is one MCP tool: its contract and its implementation.
type Tool struct {
	Name  string
	Group string
	// mutating tools change the wiki: hidden and refused when read-only.
	Mutating    bool
	Title       string
	Description string
	Input       *Schema
	Output      *Schema
	Destructive bool
	Idempotent  bool
	// reads, for a mutating tool that can also read, reports whether a
	// call's raw arguments ask for a read only. A read-only server lists
	// such a tool as read-only and serves its reads.
	Reads func(args []byte) bool
	Run   RunFunc
	// needsSemantic tools are listed only when the wiki has semantic
	// search; withSemantic, when set, is the tool served instead of this
	// one when it has.
	NeedsSemantic bool
	WithSemantic  semanticVariant
	// seedOutput, for a profile's tool, is the output schema exactly as
	// its seed gives it; the result is then its structured content as it
	// comes, and its text that JSON.
	SeedOutput json.RawMessage
}

// RunFunc runs a tool on its raw arguments and returns the structured
// content and the text rendering of its result.
type RunFunc func(ctx context.Context, env *Env, args []byte) (structured any, text string, err error)

// Bind makes a runFunc that decodes the arguments into an A, checked
// against the input schema, and calls f with it.
func Bind[A any](input *Schema, f func(ctx context.Context, env *Env, a *A) (any, string, error)) RunFunc {
	return func(ctx context.Context, env *Env, raw []byte) (any, string, error) {
		var a A
		if err := DecodeArgs(raw, input, &a); err != nil {
			return nil, "", err
		}
		return f(ctx, env, &a)
	}
}

// A profile is a tool set a client may ask for: wikid's own, or the exact
// contract of one of the systems users come from, so that a client, a
// prompt or an agent written for it works against wikid unchanged. A
// profile's tools translate arguments and results to and from wiki.Wiki;
// none re-implements a note operation.
type Profile struct {
	Tools        func() []*Tool
	Instructions string
	// words name the profile's own tools in the core's hints.
	Words wiki.Words
	// plain profiles are a source system's: errors in text only, and
	// results as its tools give them (text, or structured content under
	// the seed's own output schema).
	Plain bool
	// errorText, if set, renders a failed call's text from its code,
	// message and hint, as the source system words its errors.
	ErrorText func(code, message, hint string) string

	// Prompts, Resources, Complete and Watch are the profile's surface
	// besides its tools, each absent in a profile without it: the server
	// publishes the capability only where it is set. A seed's profile
	// keeps its seed's surface and has none of them.
	Prompts   []Prompt
	Resources []Resource
	// Complete answers completion/complete for the prompts' arguments and
	// the resource templates'; the server checks first that the prompt or
	// template and its argument exist.
	Complete CompleteFunc
	// Watch makes resource subscriptions possible: it says what a
	// subscribed URI watches.
	Watch WatchFunc
}

// HeadSnapshot returns the snapshot of HEAD.
func HeadSnapshot(ctx context.Context, s *Env) (wiki.Snapshot, error) {
	head, err := s.Wiki.Head(ctx)
	if err != nil {
		return nil, err
	}
	return s.Wiki.Snapshot(ctx, head.Commit)
}

// noteExts are the extensions of notes, in the order a note path tries
// them.
var noteExts = note.Extensions()

// FileOf returns the file of a note path at snap: the note with a
// markdown extension, "" when there is none. A tree lookup, where a read
// of the note would parse it.
func FileOf(ctx context.Context, snap wiki.Snapshot, notePath string) string {
	for _, ext := range noteExts {
		if f, err := snap.Stat(ctx, notePath+ext); err == nil {
			return f.Path
		}
	}
	return ""
}

// PlainJSON renders a seed's JSON response as the text of a result.
func PlainJSON(v any) (string, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	return string(b), err
}

// SeedObject is a seed's input schema: the properties it lists, those
// named in required required, and no word on other keys, which are
// ignored, as the seed's server ignores them.
func SeedObject(required []string, props ...Prop) *Schema {
	for i := range props {
		props[i].Required = slices.Contains(required, props[i].Name)
	}
	return &Schema{Type: "object", Props: props, Open: true, Unsaid: true}
}

// SeedInt is an integer as a seed declares one, without bounds; the tool
// checks them.
func SeedInt(desc string) *Schema { return &Schema{Type: "integer", Description: desc} }

// semanticVariant is the tool served in t's place when semantic search
// is configured.
type semanticVariant func() *Tool

// Clip cuts s to n characters, marking the cut.
func Clip(s string, n int) (string, bool) {
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
	return s[:i] + render.TruncatedMark, true
}

// SortedKeys returns the keys of m in order.
func SortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
