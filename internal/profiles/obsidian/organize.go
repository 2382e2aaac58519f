package obsidian

import (
	"cmp"
	"context"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/wikid/wikid/internal/imaging"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// Organization: moves, folders, tags and note information.

type obMoveArgs struct {
	SourcePath        string `json:"source_path"`
	DestinationPath   string `json:"destination_path"`
	SourceFolder      string `json:"source_folder"`
	DestinationFolder string `json:"destination_folder"`
	UpdateLinks       *bool  `json:"update_links"`
}

func obMoveNote() *tool.Tool {
	in := tool.SeedObject([]string{"source_path", "destination_path"},
		tool.Opt("source_path", tool.Str("Current location of the note to move")),
		tool.Opt("destination_path", tool.Str("New location for the note. Folders will be created if needed.")),
		tool.Opt("update_links", tool.Boolean("Automatically update all links to this note across the vault.").Def(true)),
	)
	return &tool.Tool{
		Name: "move_note", Group: tool.GroupNotes, Mutating: true,
		Description: "Move or rename a note, updating links to it, as one commit. Use move_folder for folders.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obMoveArgs) (any, error) {
			return obMove(ctx, s, a.SourcePath, a.DestinationPath, a.UpdateLinks, "note")
		}),
	}
}

func obMoveFolder() *tool.Tool {
	in := tool.SeedObject([]string{"source_folder", "destination_folder"},
		tool.Opt("source_folder", tool.Str("Current folder path to move")),
		tool.Opt("destination_folder", tool.Str("New location for the folder")),
		tool.Opt("update_links", tool.Boolean("Whether to update links in other notes").Def(true)),
	)
	return &tool.Tool{
		Name: "move_folder", Group: tool.GroupNotes, Mutating: true,
		Description: "Move an entire folder and all its notes, updating links to them, as one commit. Use move_note for one note.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obMoveArgs) (any, error) {
			return obMove(ctx, s, strings.TrimSuffix(a.SourceFolder, "/")+"/", strings.TrimSuffix(a.DestinationFolder, "/")+"/", a.UpdateLinks, "folder")
		}),
	}
}

func obMove(ctx context.Context, s *tool.Env, from, to string, update *bool, kind string) (any, error) {
	leave := update != nil && !*update
	res, err := s.Wiki.Move(ctx, wiki.MoveRequest{Path: from, NewPath: to, LeaveLinks: leave, Mutation: wiki.Mutation{Caller: s.Caller}})
	if err != nil {
		return nil, err
	}
	// The seed's details: the notes moved, and the links rewritten to
	// follow them; the notes that hold those links are not counted, as
	// the seed reports none.
	moved, links := 0, 0
	src, dst := strings.TrimSuffix(from, "/"), strings.TrimSuffix(to, "/")
	for _, ch := range res.Changes {
		if ch.Action == wiki.ActionMoved {
			moved++
			if kind == "note" {
				dst = ch.File
			}
		}
	}
	for _, n := range res.LinksUpdated {
		links += len(n.Links)
	}
	return map[string]any{"success": true, "source": src, "destination": dst, "type": kind,
		"details": map[string]any{"items_moved": moved, "links_updated": links, "commit": res.Commit}}, nil
}

type obFolderArgs struct {
	FolderPath        string `json:"folder_path"`
	CreatePlaceholder *bool  `json:"create_placeholder"`
}

func obCreateFolder() *tool.Tool {
	in := tool.SeedObject([]string{"folder_path"},
		tool.Opt("folder_path", tool.Str("Path of the folder to create")),
		tool.Opt("create_placeholder", tool.Boolean("Whether to create a placeholder note (README.md) so that the folder exists").Def(true)),
	)
	return &tool.Tool{
		Name: "create_folder", Group: tool.GroupNotes, Mutating: true,
		Description: "Create a folder. Git keeps no empty folder: with create_placeholder (the default) the folder gets a README.md " +
			"note, committed; without it nothing is written and the folder appears with its first note. Use create_note to add notes.",
		Input: in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obFolderArgs) (any, error) {
			folder := strings.Trim(a.FolderPath, "/")
			if folder == "" {
				return nil, tool.ArgError("folder_path", "is empty")
			}
			details := map[string]any{"folder": folder}
			if a.CreatePlaceholder == nil || *a.CreatePlaceholder {
				readme := folder + "/README.md"
				res, err := s.Wiki.Write(ctx, wiki.WriteRequest{Path: readme, Content: "# " + path.Base(folder) + "\n", Mutation: wiki.Mutation{Caller: s.Caller}})
				if err != nil {
					return nil, err
				}
				details["placeholder"], details["commit"] = readme, res.Commit
			} else {
				details["note"] = "git keeps no empty folder: it appears with its first note"
			}
			return map[string]any{"success": true, "path": folder, "operation": "created", "details": details}, nil
		}),
	}
}

type obTagArgs struct {
	Path  string   `json:"path"`
	Tags  []string `json:"tags"`
	Merge bool     `json:"merge"`
}

func obTags(name string) *tool.Tool {
	props := []tool.Prop{obPath("Path to the note")}
	var desc string
	switch name {
	case "add_tags":
		props = append(props, tool.Opt("tags", tool.StrList("List of tags to add to the note, without #. Supports hierarchical tags with forward slashes.")))
		desc = "Add tags to a note's frontmatter, without duplicates. Use update_tags to replace them all."
	case "update_tags":
		props = append(props, tool.Opt("tags", tool.StrList("New tags for the note. Empty list removes all tags. Don't include # symbols.")),
			tool.Opt("merge", tool.Boolean("True = add these tags to existing ones, False = replace all tags with this new list").Def(false)))
		desc = "Replace a note's tags, or merge new ones in. Use add_tags or remove_tags for a few."
	case "remove_tags":
		props = append(props, tool.Opt("tags", tool.StrList("Tags to remove from the note (without # prefix). Removes exact matches only.")))
		desc = "Remove specific tags from a note's frontmatter. Use update_tags with an empty list to remove all."
	}
	in := tool.SeedObject([]string{"path", "tags"}, props...)
	return &tool.Tool{
		Name: name, Group: tool.GroupNotes, Mutating: true,
		Description: desc,
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obTagArgs) (any, error) {
			before, err := s.Wiki.Read(ctx, wiki.ReadRequest{Path: a.Path, MetadataOnly: true})
			if err != nil {
				return nil, err
			}
			var ch note.MetaChange
			operation := "updated"
			switch {
			case name == "add_tags" || name == "update_tags" && a.Merge:
				ch.AddTags = a.Tags
				if name == "add_tags" {
					operation = "added"
				}
			case name == "remove_tags":
				ch.RemoveTags, operation = a.Tags, "removed"
			case len(a.Tags) == 0:
				ch.RemoveTags = before.Tags
			default:
				ch.Tags = a.Tags
			}
			if len(ch.AddTags) == 0 && len(ch.RemoveTags) == 0 && ch.Tags == nil && name != "update_tags" {
				return nil, tool.ArgError("tags", "is empty: give at least one tag")
			}
			if _, err := s.Wiki.UpdateMetadata(ctx, wiki.MetadataRequest{Path: a.Path, Change: ch,
				Mutation: wiki.Mutation{ExpectedVersion: before.Version, Caller: s.Caller}}); err != nil {
				return nil, err
			}
			after, err := s.Wiki.Read(ctx, wiki.ReadRequest{Path: a.Path, MetadataOnly: true})
			if err != nil {
				return nil, err
			}
			added, removed := []string{}, []string{}
			for _, t := range after.Tags {
				if !slices.Contains(before.Tags, t) {
					added = append(added, t)
				}
			}
			for _, t := range before.Tags {
				if !slices.Contains(after.Tags, t) {
					removed = append(removed, t)
				}
			}
			file := after.File
			if file == "" {
				file = after.Path + ".md"
			}
			return map[string]any{"success": true, "path": file, "operation": operation, "tags": map[string]any{
				"before": orEmpty(before.Tags), "after": orEmpty(after.Tags), "changes": map[string]any{"added": added, "removed": removed}}}, nil
		}),
	}
}

var (
	obWikiLink  = regexp.MustCompile(`!?\[\[[^\]]+\]\]`)
	obMDLink    = regexp.MustCompile(`!?\[[^\]]*\]\([^)]+\)`)
	obInlineTag = regexp.MustCompile(`(?:^|\s)#[\p{L}\p{N}_/-]+`)
)

func obNoteInfo() *tool.Tool {
	in := tool.SeedObject([]string{"path"}, obPath("Path to the note to analyze"))
	return &tool.Tool{
		Name: "get_note_info", Group: tool.GroupSearch,
		Description: "Get metadata and statistics about a note without its content. Use read_note for the content.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obPathArgs) (any, error) {
			r, err := s.Wiki.Read(ctx, wiki.ReadRequest{Path: a.Path, MaxChars: int(s.Wiki.Options().MaxNoteSize)})
			if wiki.CodeOf(err) == wiki.CodeNotFound {
				return map[string]any{"success": true, "path": a.Path, "operation": "info", "details": map[string]any{"exists": false}}, nil
			}
			if err != nil {
				return nil, err
			}
			body := r.Content[r.BodyStart:]
			images := 0
			for _, l := range append(obWikiLink.FindAllString(body, -1), obMDLink.FindAllString(body, -1)...) {
				if strings.HasPrefix(l, "!") && imaging.TypeOf(strings.Trim(strings.SplitN(strings.Trim(l, "![]()"), "|", 2)[0], " ")) != "" {
					images++
				}
			}
			details := map[string]any{"exists": true, "metadata": obMetadata(r), "stats": map[string]any{
				"word_count": len(strings.Fields(body)), "character_count": len([]rune(body)),
				"link_count": len(obWikiLink.FindAllString(body, -1)) + len(obMDLink.FindAllString(body, -1)),
				"tag_count":  len(r.Tags), "inline_tag_count": len(obInlineTag.FindAllString(body, -1)),
				"has_images": images > 0, "image_count": images}}
			file := r.File
			if file == "" {
				file = r.Path + ".md"
			}
			return map[string]any{"success": true, "path": file, "operation": "info", "details": details}, nil
		}),
	}
}

type obTagListArgs struct {
	IncludeCounts *bool  `json:"include_counts"`
	SortBy        string `json:"sort_by"`
}

func obListTags() *tool.Tool {
	in := tool.SeedObject(nil,
		tool.Opt("include_counts", tool.Boolean("Show how many notes use each tag").Def(true)),
		tool.Opt("sort_by", tool.Enum("Sort tags alphabetically by 'name' or by popularity with 'count'", "name", "count").Def("name")),
	)
	return &tool.Tool{
		Name: "list_tags", Group: tool.GroupSearch,
		Description: "List all unique tags used across the vault, nested tags counted for their parents too. Use get_note_info for one note's tags.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obTagListArgs) (any, error) {
			tags, err := s.Wiki.Tags(ctx, wiki.TagsRequest{})
			if err != nil {
				return nil, err
			}
			counts := a.IncludeCounts == nil || *a.IncludeCounts
			sortBy := cmp.Or(a.SortBy, "name")
			if sortBy == "count" {
				slices.SortStableFunc(tags, func(x, y wiki.TagCount) int { return y.Count - x.Count })
			} else {
				slices.SortStableFunc(tags, func(x, y wiki.TagCount) int { return strings.Compare(x.Tag, y.Tag) })
			}
			items := []map[string]any{}
			for _, t := range tags {
				item := map[string]any{"name": t.Tag}
				if counts {
					item["count"] = t.Count
				}
				items = append(items, item)
			}
			return map[string]any{"items": items, "total": len(items), "scope": map[string]any{"include_counts": counts, "sort_by": sortBy}}, nil
		}),
	}
}
