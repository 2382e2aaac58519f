package tools

import (
	"context"
	"fmt"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

type writeArgs struct {
	Path       string         `json:"path"`
	Content    string         `json:"content"`
	Title      *string        `json:"title"`
	Tags       []string       `json:"tags"`
	Aliases    []string       `json:"aliases"`
	Properties map[string]any `json:"properties"`
	Overwrite  bool           `json:"overwrite"`
	mutationArgs
}

func (a *writeArgs) request(c wiki.Caller) wiki.WriteRequest {
	return wiki.WriteRequest{Path: a.Path, Content: a.Content, Title: a.Title, Tags: a.Tags, Aliases: a.Aliases,
		Properties: a.Properties, Overwrite: a.Overwrite, Mutation: a.mutation(c)}
}

func (a *writeArgs) change(c wiki.Caller) wiki.Change {
	r := a.request(c)
	return wiki.Change{Write: &r}
}

func writeNoteInput() *tool.Schema {
	return tool.Object("", mutationProps(
		pathProp,
		tool.Req("content", tool.Text("")),
		tool.Opt("title", tool.Str("")),
		tool.Opt("tags", tool.StrList("")),
		tool.Opt("aliases", tool.StrList("")),
		tool.Opt("properties", tool.OpenObject("")),
		tool.Opt("overwrite", tool.Boolean("")),
	)...)
}

func writeNoteTool() *tool.Tool {
	in := writeNoteInput()
	return &tool.Tool{
		Name: "write_note", Group: tool.GroupNotes, Mutating: true, Idempotent: true, Title: "Create or replace a note",
		Description: "Create a note, or replace one with overwrite. Use edit_note for part of a note, update_metadata for " +
			"frontmatter.",
		Input:  in,
		Output: noteMutationSchema("The outcome.").Without("metadata", "links_updated", "broken_links"),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *writeArgs) (any, string, error) {
			res, err := s.Wiki.Write(ctx, a.request(s.Caller))
			if err != nil {
				return nil, "", err
			}
			return noteOutput(a.Path, res), render.Written(a.Path, res), nil
		}),
	}
}

type editArgs struct {
	Path  string     `json:"path"`
	Edits []editStep `json:"edits"`
	mutationArgs
}

// editStep is one of edit_note's edits as the client sends it.
type editStep struct {
	Op              string `json:"op"`
	Content         string `json:"content"`
	Find            string `json:"find"`
	Section         string `json:"section"`
	ExpectedMatches int    `json:"expected_matches"` // 0 means 1; only for replace
}

func (a *editArgs) request(c wiki.Caller) wiki.EditRequest {
	edits := make([]note.Edit, len(a.Edits))
	for i, e := range a.Edits {
		edits[i] = note.Edit{Op: e.Op, Content: e.Content, Find: e.Find, Section: e.Section, ExpectedMatches: e.ExpectedMatches}
	}
	return wiki.EditRequest{Path: a.Path, Edits: edits, Mutation: a.mutation(c)}
}

func (a *editArgs) change(c wiki.Caller) wiki.Change {
	r := a.request(c)
	return wiki.Change{Edit: &r}
}

func editNoteInput() *tool.Schema {
	edit := tool.Object("",
		tool.Req("op", tool.Enum("append/prepend: end/top of body; replace: find becomes content; append_section/prepend_section/"+
			"replace_section: end/start/body of section; insert_before/insert_after: around the section; delete_section.",
			note.OpAppend, note.OpPrepend, note.OpReplace, note.OpAppendSection, note.OpPrependSection,
			note.OpReplaceSection, note.OpInsertBefore, note.OpInsertAfter, note.OpDeleteSection)),
		tool.Opt("content", tool.Text("")),
		tool.Opt("find", tool.Text("")),
		tool.Opt("section", tool.Str("")),
		tool.Opt("expected_matches", tool.Integer("Occurrences of find; all are replaced.", 1, 10000).Def(1)),
	)
	return tool.Object("", mutationProps(
		pathProp,
		tool.Req("edits", &tool.Schema{Type: "array", MinItems: tool.Ptr(1), MaxItems: tool.Ptr(100), Items: edit}),
	)...)
}

func editNoteTool() *tool.Tool {
	in := editNoteInput()
	return &tool.Tool{
		Name: "edit_note", Group: tool.GroupNotes, Mutating: true, Title: "Edit part of a note",
		Description: "Change part of a note without resending it; edits apply in order, all or nothing. Use write_note to replace " +
			"it whole.",
		Input:  in,
		Output: noteMutationSchema("The outcome.").Without("metadata", "links_updated", "broken_links"),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *editArgs) (any, string, error) {
			res, err := s.Wiki.Edit(ctx, a.request(s.Caller))
			if err != nil {
				return nil, "", err
			}
			return noteOutput(a.Path, res), render.Edited(a.Path, len(a.Edits), res), nil
		}),
	}
}

type metadataArgs struct {
	Path       string         `json:"path"`
	Title      *string        `json:"title"`
	Tags       []string       `json:"tags"`
	AddTags    []string       `json:"add_tags"`
	RemoveTags []string       `json:"remove_tags"`
	Aliases    []string       `json:"aliases"`
	Set        map[string]any `json:"set"`
	Unset      []string       `json:"unset"`
	mutationArgs
}

func (a *metadataArgs) request(c wiki.Caller) wiki.MetadataRequest {
	return wiki.MetadataRequest{Path: a.Path, Mutation: a.mutation(c), Change: note.MetaChange{
		Title: a.Title, Tags: a.Tags, AddTags: a.AddTags, RemoveTags: a.RemoveTags,
		Aliases: a.Aliases, Set: a.Set, Unset: a.Unset,
	}}
}

func (a *metadataArgs) change(c wiki.Caller) wiki.Change {
	r := a.request(c)
	return wiki.Change{Metadata: &r}
}

func updateMetadataInput() *tool.Schema {
	return tool.Object("", mutationProps(
		pathProp,
		tool.Opt("title", tool.Str("")),
		tool.Opt("tags", tool.StrList("")),
		tool.Opt("add_tags", tool.StrList("")),
		tool.Opt("remove_tags", tool.StrList("")),
		tool.Opt("aliases", tool.StrList("")),
		tool.Opt("set", tool.OpenObject("")),
		tool.Opt("unset", tool.StrList("")),
	)...)
}

func updateMetadataTool() *tool.Tool {
	in := updateMetadataInput()
	return &tool.Tool{
		Name: "update_metadata", Group: tool.GroupNotes, Mutating: true, Idempotent: true, Title: "Change a note's frontmatter",
		Description: "Change frontmatter only: title, tags, aliases replace; add_tags/remove_tags; set/unset keys. " +
			"Use edit_note for the body.",
		Input:  in,
		Output: noteMutationSchema("The outcome, with metadata before and after.").Without("links_updated", "broken_links"),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *metadataArgs) (any, string, error) {
			res, err := s.Wiki.UpdateMetadata(ctx, a.request(s.Caller))
			if err != nil {
				return nil, "", err
			}
			out := noteOutput(a.Path, res)
			var details []string
			if res.Metadata != nil {
				details = metadataDiff(res.Metadata)
			}
			return out, render.Mutation("Updated the metadata of "+out.Path, res, details...), nil
		}),
	}
}

// metadataDiff lists the frontmatter keys that changed, one line each.
func metadataDiff(m *wiki.MetadataChange) []string {
	var lines []string
	keys := map[string]bool{}
	for k := range m.Before {
		keys[k] = true
	}
	for k := range m.After {
		keys[k] = true
	}
	for _, k := range tool.SortedKeys(keys) {
		before, had := m.Before[k]
		after, has := m.After[k]
		switch {
		case had && !has:
			lines = append(lines, fmt.Sprintf("%s: %s → (removed)", k, render.Value(before)))
		case !had && has:
			lines = append(lines, fmt.Sprintf("%s: (new) → %s", k, render.Value(after)))
		case render.Value(before) != render.Value(after):
			lines = append(lines, fmt.Sprintf("%s: %s → %s", k, render.Value(before), render.Value(after)))
		}
	}
	return lines
}

type deleteArgs struct {
	Path    string `json:"path"`
	Confirm bool   `json:"confirm"`
	mutationArgs
}

func (a *deleteArgs) request(c wiki.Caller) wiki.DeleteRequest {
	return wiki.DeleteRequest{Path: a.Path, Confirm: a.Confirm, Mutation: a.mutation(c)}
}

func (a *deleteArgs) change(c wiki.Caller) wiki.Change {
	r := a.request(c)
	return wiki.Change{Delete: &r}
}

func deleteNoteInput() *tool.Schema {
	return tool.Object("", mutationProps(
		pathProp,
		tool.Req("confirm", tool.Boolean("Must be true.")),
	)...)
}

func deleteNoteTool() *tool.Tool {
	in := deleteNoteInput()
	return &tool.Tool{
		Name: "delete_note", Group: tool.GroupNotes, Mutating: true, Destructive: true, Idempotent: true, Title: "Delete a note",
		Description: "Delete a note; links to it stay, listed as broken_links. Use move_note to rename.",
		Input:       in,
		Output:      noteMutationSchema("The outcome.").Without("metadata", "links_updated"),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *deleteArgs) (any, string, error) {
			res, err := s.Wiki.Delete(ctx, a.request(s.Caller))
			if err != nil {
				return nil, "", err
			}
			return noteOutput(a.Path, res), render.Deleted(a.Path, res), nil
		}),
	}
}
