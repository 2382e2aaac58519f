package mcpserver

import (
	"context"
	"fmt"

	"github.com/wikid/wikid/internal/note"
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

func writeNoteInput() *schema {
	return object("", mutationProps(
		pathProp,
		req("content", text("")),
		opt("title", str("")),
		opt("tags", strList("")),
		opt("aliases", strList("")),
		opt("properties", openObject("")),
		opt("overwrite", boolean("")),
	)...)
}

func writeNoteTool() *tool {
	in := writeNoteInput()
	return &tool{
		name: "write_note", group: GroupNotes, mutating: true, idempotent: true, title: "Create or replace a note",
		description: "Create a note, or replace one with overwrite. Use edit_note for part of a note, update_metadata for " +
			"frontmatter.",
		input:  in,
		output: noteMutationSchema("The outcome.").without("metadata", "links_updated", "broken_links"),
		run: bind(in, func(ctx context.Context, s *Env, a *writeArgs) (any, string, error) {
			res, err := s.Wiki.Write(ctx, a.request(s.Caller))
			if err != nil {
				return nil, "", err
			}
			out := noteOutput(a.Path, res)
			verb := "Replaced"
			if len(res.Changes) == 1 && res.Changes[0].Action == wiki.ActionCreated {
				verb = "Created"
			}
			title := note.Parse(out.Path, []byte(a.Content)).Title
			if a.Title != nil {
				title = *a.Title
			}
			return out, mutationText(fmt.Sprintf("%s note %q at %s", verb, title, out.Path), res), nil
		}),
	}
}

type editArgs struct {
	Path  string      `json:"path"`
	Edits []note.Edit `json:"edits"`
	mutationArgs
}

func (a *editArgs) request(c wiki.Caller) wiki.EditRequest {
	return wiki.EditRequest{Path: a.Path, Edits: a.Edits, Mutation: a.mutation(c)}
}

func (a *editArgs) change(c wiki.Caller) wiki.Change {
	r := a.request(c)
	return wiki.Change{Edit: &r}
}

func editNoteInput() *schema {
	edit := object("",
		req("op", enum("append/prepend: end/top of body; replace: find becomes content; append_section/prepend_section/"+
			"replace_section: end/start/body of section; insert_before/insert_after: around the section; delete_section.",
			note.OpAppend, note.OpPrepend, note.OpReplace, note.OpAppendSection, note.OpPrependSection,
			note.OpReplaceSection, note.OpInsertBefore, note.OpInsertAfter, note.OpDeleteSection)),
		opt("content", text("")),
		opt("find", text("")),
		opt("section", str("")),
		opt("expected_matches", integer("Occurrences of find; all are replaced.", 1, 10000).def(1)),
	)
	return object("", mutationProps(
		pathProp,
		req("edits", &schema{Type: "array", MinItems: ptr(1), MaxItems: ptr(100), Items: edit}),
	)...)
}

func editNoteTool() *tool {
	in := editNoteInput()
	return &tool{
		name: "edit_note", group: GroupNotes, mutating: true, title: "Edit part of a note",
		description: "Change part of a note without resending it; edits apply in order, all or nothing. Use write_note to replace " +
			"it whole.",
		input:  in,
		output: noteMutationSchema("The outcome.").without("metadata", "links_updated", "broken_links"),
		run: bind(in, func(ctx context.Context, s *Env, a *editArgs) (any, string, error) {
			res, err := s.Wiki.Edit(ctx, a.request(s.Caller))
			if err != nil {
				return nil, "", err
			}
			out := noteOutput(a.Path, res)
			return out, mutationText(fmt.Sprintf("Edited %s with %s", out.Path, plural(len(a.Edits), "edit")), res), nil
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

func updateMetadataInput() *schema {
	return object("", mutationProps(
		pathProp,
		opt("title", str("")),
		opt("tags", strList("")),
		opt("add_tags", strList("")),
		opt("remove_tags", strList("")),
		opt("aliases", strList("")),
		opt("set", openObject("")),
		opt("unset", strList("")),
	)...)
}

func updateMetadataTool() *tool {
	in := updateMetadataInput()
	return &tool{
		name: "update_metadata", group: GroupNotes, mutating: true, idempotent: true, title: "Change a note's frontmatter",
		description: "Change frontmatter only: title, tags, aliases replace; add_tags/remove_tags; set/unset keys. " +
			"Use edit_note for the body.",
		input:  in,
		output: noteMutationSchema("The outcome, with metadata before and after.").without("links_updated", "broken_links"),
		run: bind(in, func(ctx context.Context, s *Env, a *metadataArgs) (any, string, error) {
			res, err := s.Wiki.UpdateMetadata(ctx, a.request(s.Caller))
			if err != nil {
				return nil, "", err
			}
			out := noteOutput(a.Path, res)
			var details []string
			if res.Metadata != nil {
				details = metadataDiff(res.Metadata)
			}
			return out, mutationText("Updated the metadata of "+out.Path, res, details...), nil
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
	for _, k := range sortedKeys(keys) {
		before, had := m.Before[k]
		after, has := m.After[k]
		switch {
		case had && !has:
			lines = append(lines, fmt.Sprintf("%s: %s → (removed)", k, value(before)))
		case !had && has:
			lines = append(lines, fmt.Sprintf("%s: (new) → %s", k, value(after)))
		case value(before) != value(after):
			lines = append(lines, fmt.Sprintf("%s: %s → %s", k, value(before), value(after)))
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

func deleteNoteInput() *schema {
	return object("", mutationProps(
		pathProp,
		req("confirm", boolean("Must be true.")),
	)...)
}

func deleteNoteTool() *tool {
	in := deleteNoteInput()
	return &tool{
		name: "delete_note", group: GroupNotes, mutating: true, destructive: true, idempotent: true, title: "Delete a note",
		description: "Delete a note; links to it stay, listed as broken_links. Use move_note to rename.",
		input:       in,
		output:      noteMutationSchema("The outcome.").without("metadata", "links_updated"),
		run: bind(in, func(ctx context.Context, s *Env, a *deleteArgs) (any, string, error) {
			res, err := s.Wiki.Delete(ctx, a.request(s.Caller))
			if err != nil {
				return nil, "", err
			}
			out := noteOutput(a.Path, res)
			return out, mutationText("Deleted note "+out.Path, res), nil
		}),
	}
}
