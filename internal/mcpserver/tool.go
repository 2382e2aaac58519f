package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

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

// tool is one MCP tool: its contract and its implementation.
type tool struct {
	name  string
	group string
	// mutating tools change the wiki: hidden and refused when read-only.
	mutating    bool
	title       string
	description string
	input       *schema
	output      *schema
	destructive bool
	idempotent  bool
	// reads, for a mutating tool that can also read, reports whether a
	// call's raw arguments ask for a read only. A read-only server lists
	// such a tool as read-only and serves its reads.
	reads func(args []byte) bool
	run   runFunc
	// needsSemantic tools are listed only when the wiki has semantic
	// search; withSemantic, when set, is the tool served instead of this
	// one when it has.
	needsSemantic bool
	withSemantic  semanticVariant
	// seedOutput, for a profile's tool, is the output schema exactly as
	// its seed gives it; the result is then its structured content as it
	// comes, and its text that JSON.
	seedOutput json.RawMessage
}

// runFunc runs a tool on its raw arguments and returns the structured
// content and the text rendering of its result.
type runFunc func(ctx context.Context, env *Env, args []byte) (structured any, text string, err error)

// bind makes a runFunc that decodes the arguments into an A, checked
// against the input schema, and calls f with it.
func bind[A any](input *schema, f func(ctx context.Context, env *Env, a *A) (any, string, error)) runFunc {
	return func(ctx context.Context, env *Env, raw []byte) (any, string, error) {
		var a A
		if err := decodeArgs(raw, input, &a); err != nil {
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

// headSnapshot returns the snapshot of HEAD.
func headSnapshot(ctx context.Context, s *Env) (wiki.Snapshot, error) {
	head, err := s.Wiki.Store().Head(ctx)
	if err != nil {
		return nil, err
	}
	return s.Wiki.Store().Snapshot(ctx, head.Commit)
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

// semanticVariant is the tool served in t's place when semantic search
// is configured.
type semanticVariant func() *tool

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

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// truncatedMark ends a text that was cut.
const truncatedMark = "... [truncated]"

// sentence ends s with exactly one period.
func sentence(s string) string {
	s = strings.TrimRight(strings.TrimSpace(s), ".")
	if s == "" {
		return s
	}
	return s + "."
}
