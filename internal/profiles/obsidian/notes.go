package obsidian

import (
	"context"
	"time"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// Note management: read, create, update and delete.

type obPathArgs struct {
	Path string `json:"path"`
}

func obRead() *tool.Tool {
	in := tool.SeedObject([]string{"path"}, obPath("Note location within your vault (e.g., 'Projects/AI Research.md'). Use forward slashes for folders."))
	return &tool.Tool{
		Name: "read_note", Group: tool.GroupNotes,
		Description: "Read the content and metadata of a specific note. Use get_note_info for metadata only, view_note_images for its images.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obPathArgs) (any, error) {
			r, err := s.Wiki.Read(ctx, wiki.ReadRequest{Path: a.Path, MaxChars: int(s.Wiki.Options().MaxNoteSize)})
			if err != nil {
				return nil, err
			}
			file := r.File
			if file == "" {
				file = r.Path + ".md"
			}
			return map[string]any{"success": true, "path": file, "operation": "read", "details": map[string]any{
				"content": r.Content, "metadata": obMetadata(r)}}, nil
		}),
	}
}

// obMetadata is a note's metadata as the Obsidian tools show it.
func obMetadata(r *wiki.ReadResult) map[string]any {
	m := map[string]any{"title": r.Title, "tags": orEmpty(r.Tags), "aliases": orEmpty(r.Aliases), "frontmatter": r.Properties,
		"size": len(r.Content), "version": r.Version}
	if m["frontmatter"] == nil {
		m["frontmatter"] = map[string]any{}
	}
	if r.Created != nil {
		m["created"] = r.Created.UTC().Format(time.RFC3339)
	}
	if r.Modified != nil {
		m["modified"] = r.Modified.UTC().Format(time.RFC3339)
	}
	return m
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

type obCreateArgs struct {
	Path      string `json:"path"`
	Content   string `json:"content"`
	Overwrite bool   `json:"overwrite"`
}

func obCreate() *tool.Tool {
	in := tool.SeedObject([]string{"path", "content"},
		obPath("Where to create the new note in your vault. Folders will be created automatically if needed."),
		tool.Opt("content", tool.Text("The markdown content for your note. Can include headings (#), tags (#tag), links ([[other note]]), and frontmatter.")),
		tool.Opt("overwrite", tool.Boolean("Set to true to replace an existing note at this location.").Def(false)),
	)
	return &tool.Tool{
		Name: "create_note", Group: tool.GroupNotes, Mutating: true,
		Description: "Create a new note or overwrite an existing one. Use update_note to append.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obCreateArgs) (any, error) {
			res, err := s.Wiki.Write(ctx, wiki.WriteRequest{Path: a.Path, Content: a.Content, Overwrite: a.Overwrite, Mutation: wiki.Mutation{Caller: s.Caller}})
			if err != nil {
				return nil, err
			}
			return obCRUD(res, a.Path, "created"), nil
		}),
	}
}

// obCRUD is the CRUD structure of a change: operation "created",
// "updated" or "deleted", with the commit in its details.
func obCRUD(res *wiki.Result, file, operation string) map[string]any {
	details := map[string]any{"commit": res.Commit}
	if len(res.Changes) == 1 {
		c := res.Changes[0]
		file = c.File
		switch c.Action {
		case wiki.ActionCreated:
			operation = "created"
		case wiki.ActionModified:
			operation = "updated"
		}
		details["lines_added"], details["lines_removed"] = c.Additions, c.Deletions
	}
	if res.Commit == "" {
		details["note"] = "the note already had this content: nothing changed"
	}
	if len(res.BrokenLinks) > 0 {
		var notes []string
		for _, b := range res.BrokenLinks {
			notes = append(notes, b.Path)
		}
		details["notes_with_broken_links"] = notes
	}
	return map[string]any{"success": true, "path": file, "operation": operation, "details": details}
}

type obUpdateArgs struct {
	Path              string `json:"path"`
	Content           string `json:"content"`
	CreateIfNotExists bool   `json:"create_if_not_exists"`
	MergeStrategy     string `json:"merge_strategy"`
}

func obUpdate() *tool.Tool {
	in := tool.SeedObject([]string{"path", "content"},
		obPath("Which note to update in your vault"),
		tool.Opt("content", tool.Text("New content for the note. By default this REPLACES all existing content. Use merge_strategy='append' to add to the end instead.")),
		tool.Opt("create_if_not_exists", tool.Boolean("Automatically create the note if it doesn't exist yet").Def(false)),
		tool.Opt("merge_strategy", tool.Enum("How to handle existing content: 'replace' = overwrite everything (default), 'append' = add new content to the end", "replace", "append").Def("replace")),
	)
	return &tool.Tool{
		Name: "update_note", Group: tool.GroupNotes, Mutating: true,
		Description: "Update the content of an existing note: replace it all, or append. Use create_note for new notes.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obUpdateArgs) (any, error) {
			m := wiki.Mutation{Caller: s.Caller}
			_, err := s.Wiki.Read(ctx, wiki.ReadRequest{Path: a.Path, MetadataOnly: true})
			missing := wiki.CodeOf(err) == wiki.CodeNotFound
			switch {
			case missing && !a.CreateIfNotExists:
				return nil, wiki.Errorf(wiki.CodeNotFound, "no note at %s", a.Path).
					WithHint("check the path with list_notes, or set create_if_not_exists: true")
			case err != nil && !missing:
				return nil, err
			}
			var res *wiki.Result
			if a.MergeStrategy == "append" && !missing {
				res, err = s.Wiki.Edit(ctx, wiki.EditRequest{Path: a.Path, Edits: []note.Edit{{Op: note.OpAppend, Content: a.Content}}, Mutation: m})
			} else {
				res, err = s.Wiki.Write(ctx, wiki.WriteRequest{Path: a.Path, Content: a.Content, Overwrite: true, Mutation: m})
			}
			if err != nil {
				return nil, err
			}
			return obCRUD(res, a.Path, "updated"), nil
		}),
	}
}

func obDelete() *tool.Tool {
	in := tool.SeedObject([]string{"path"}, obPath("Path to the note to delete from your vault"))
	return &tool.Tool{
		Name: "delete_note", Group: tool.GroupNotes, Mutating: true, Destructive: true,
		Description: "Delete a note from the vault. Its versions stay in git history, which can bring it back. Use move_note to archive.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obPathArgs) (any, error) {
			res, err := s.Wiki.Delete(ctx, wiki.DeleteRequest{Path: a.Path, Confirm: true, Mutation: wiki.Mutation{Caller: s.Caller}})
			if err != nil {
				return nil, err
			}
			return obCRUD(res, a.Path, "deleted"), nil
		}),
	}
}
