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
		req("content", text("The whole note in markdown. It may start with a YAML frontmatter block (--- ... ---).")),
		opt("title", str("Sets the frontmatter title, replacing one in content.")),
		opt("tags", strList("Tags added to the frontmatter tags of content (without '#'; nested tags use '/').")),
		opt("aliases", strList("Other names of the note; they replace aliases in content.")),
		opt("properties", openObject("Frontmatter keys to set, key → any JSON value; they replace the same keys in content.")),
		opt("overwrite", boolean("Replace the note if it exists. Without it, writing to an existing note fails with ALREADY_EXISTS.").def(false)),
	)...)
}

func writeNoteTool() *tool {
	in := writeNoteInput()
	return &tool{
		name: "write_note", group: GroupNotes, mutating: true, idempotent: true, title: "Create or replace a note",
		description: "Create a note, or replace a whole note with overwrite: true, as one git commit. title, tags, aliases and " +
			"properties are merged into the content's frontmatter. Do not use it to change part of an existing note (use " +
			"edit_note, which does not resend the note) or only its frontmatter (use update_metadata). Returns the commit " +
			"and the note's new version.",
		input:  in,
		output: noteMutationSchema("The outcome."),
		run: bind(in, func(ctx context.Context, s *Server, a *writeArgs) (any, string, error) {
			res, err := s.w.Write(ctx, a.request(s.caller(ctx)))
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
	edit := object("One edit operation.",
		req("op", enum("append: content at the end of the note; prepend: at the top of the body, after the frontmatter; "+
			"replace: find becomes content; append_section / prepend_section: content at the end / start of section; "+
			"replace_section: content replaces what is under the heading (the heading stays); insert_before / insert_after: "+
			"content just before the heading / just after the whole section; delete_section: removes the heading and its section.",
			note.OpAppend, note.OpPrepend, note.OpReplace, note.OpAppendSection, note.OpPrependSection,
			note.OpReplaceSection, note.OpInsertBefore, note.OpInsertAfter, note.OpDeleteSection)),
		opt("content", text("The markdown to insert, or the replacement. Whole lines; start or end it with an empty line to separate paragraphs.")),
		opt("find", text("For replace: the exact text to find (not a pattern).")),
		opt("section", str("For the section ops: the heading's text (first match at any level), or Parent/Child.")),
		opt("expected_matches", integer("For replace: how many times find must occur; every occurrence is replaced.", 1, 10000).def(1)),
	)
	return object("", mutationProps(
		pathProp,
		req("edits", &schema{Type: "array", MinItems: ptr(1), MaxItems: ptr(100), Items: edit,
			Description: "Edits applied in order, each seeing the result of the previous; all or nothing, one commit."}),
	)...)
}

func editNoteTool() *tool {
	in := editNoteInput()
	return &tool{
		name: "edit_note", group: GroupNotes, mutating: true, title: "Edit part of a note",
		description: "Change part of a note without resending it: append or prepend text, replace an exact text, or add to, " +
			"replace, insert around or delete a section under a heading. Several edits apply in order as one commit, all or " +
			"nothing. A find text that matches another number of times than expected_matches is AMBIGUOUS (or NOT_FOUND); a " +
			"missing heading is NOT_FOUND and lists the headings that exist. Use write_note to replace a whole note, " +
			"update_metadata for frontmatter, daily_note for today's note.",
		input:  in,
		output: noteMutationSchema("The outcome."),
		run: bind(in, func(ctx context.Context, s *Server, a *editArgs) (any, string, error) {
			res, err := s.w.Edit(ctx, a.request(s.caller(ctx)))
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
		opt("title", str("New title.")),
		opt("tags", strList("Replace all tags with these. Not together with add_tags or remove_tags.")),
		opt("add_tags", strList("Tags to add; adding one the note has is a no-op.")),
		opt("remove_tags", strList("Tags to remove, ignoring case; removing one the note lacks is a no-op. Applied before add_tags.")),
		opt("aliases", strList("Replace the aliases with these.")),
		opt("set", openObject("Frontmatter keys to set, key → any JSON value (string, number, boolean, list, object, or null).")),
		opt("unset", strList("Frontmatter keys to remove; a missing key is ignored.")),
	)...)
}

func updateMetadataTool() *tool {
	in := updateMetadataInput()
	return &tool{
		name: "update_metadata", group: GroupNotes, mutating: true, idempotent: true, title: "Change a note's frontmatter",
		description: "Change only a note's frontmatter: title, tags (replace, or add_tags/remove_tags), aliases, any key with " +
			"set, or remove keys with unset. Only the lines of the changed keys are rewritten; comments and the body keep " +
			"their bytes. Returns the frontmatter before and after. Use edit_note or write_note to change the body.",
		input:  in,
		output: noteMutationSchema("The outcome, with metadata before and after."),
		run: bind(in, func(ctx context.Context, s *Server, a *metadataArgs) (any, string, error) {
			res, err := s.w.UpdateMetadata(ctx, a.request(s.caller(ctx)))
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
		req("confirm", boolean("Must be true: says you mean to delete the note.")),
	)...)
}

func deleteNoteTool() *tool {
	in := deleteNoteInput()
	return &tool{
		name: "delete_note", group: GroupNotes, mutating: true, destructive: true, idempotent: true, title: "Delete a note",
		description: "Delete a note as one git commit. It stays in history and can be brought back (restore_note, or git). " +
			"confirm must be true. Links to it from other notes are not changed: the result lists the notes whose links " +
			"named it (broken_links), by path, title or alias. Use dry_run to see the diff first; use move_note instead " +
			"to rename or file away a note.",
		input:  in,
		output: noteMutationSchema("The outcome."),
		run: bind(in, func(ctx context.Context, s *Server, a *deleteArgs) (any, string, error) {
			res, err := s.w.Delete(ctx, a.request(s.caller(ctx)))
			if err != nil {
				return nil, "", err
			}
			out := noteOutput(a.Path, res)
			return out, mutationText("Deleted note "+out.Path, res), nil
		}),
	}
}
