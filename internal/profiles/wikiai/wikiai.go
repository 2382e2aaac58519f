package wikiai

import (
	"context"
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

const instructions = `Wiki-AI tools over a git repository of markdown notes (served by wikid). Paths have no ` +
	`extension. Every change is one git commit: get_note_history lists them, restore_note_version brings one back.`

var words = wiki.Words{
	"read": "get_note", "write": "create_note", "edit": "update_note", "metadata": "update_note",
	"delete": "delete_note", "move": "update_note with new_path", "apply": "update_note",
	"list": "browse", "search": "search_notes", "resolve": "search_notes", "grep": "search_notes",
	"links": "get_backlinks", "broken_links": "get_backlinks", "tags": "list_tags", "sync": "git pull and git push",
	"history": "get_note_history", "diff": "diff_note_versions", "blame": "get_note_history", "activity": "recent_notes",
	"restore": "restore_note_version", "revert": "restore_note_version", "status": "git status", "daily": "create_note",
	"expected_version": "a fresh get_note", "overwrite": "update_note", "regex_off": "a plain query",
	"read_only": "a read-only server", "version": "version",
	// No edits and no count of matches; a search's next page cursor is
	// the one its answer prints.
	"new_path": "new_path", "expected_matches": "", "edits": "", "cursor": "cursor", "next_cursor": "cursor",
}

// Profile is the profile's tool set, as a server serves it.
func Profile() tool.Profile {
	return tool.Profile{Tools: toolSet, Instructions: instructions, Words: words, Plain: true}
}

func toolSet() []*tool.Tool {
	return []*tool.Tool{waCreate(), waGet(), waUpdate(), waDelete(), waSearch(), waBrowse(), waListTags(), waBacklinks(),
		waRecent(), waHistory(), waVersion(), waDiff(), waRestore()}
}

// seedNumber is a number as a seed declares one: the tool takes whole
// numbers only.
func seedNumber(desc string) *tool.Schema { return &tool.Schema{Type: "number", Description: desc} }

// count turns a seed's number argument into a count from 1 to max, def
// when absent.
func count(arg string, v float64, def, max int) (int, error) {
	switch {
	case v == 0:
		return def, nil
	case v != math.Trunc(v) || v < 1 || v > float64(max):
		return 0, tool.ArgError(arg, "is %v; give a whole number from 1 to %d", v, max)
	}
	return int(v), nil
}

func waPathArg(desc string) tool.Prop { return tool.Opt("path", tool.Str(desc)) }

func stamp(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// linkCounts lists notes with how many links each has: "- p (2 links)".
func linkCounts(b *strings.Builder, notes []wiki.LinkedNote) {
	for _, n := range notes {
		fmt.Fprintf(b, "- %s (%s)\n", n.Path, render.Plural(len(n.Links), "link"))
	}
}

// --- create_note

type waCreateArgs struct {
	Path    string   `json:"path"`
	Title   string   `json:"title"`
	Content string   `json:"content"`
	Tags    []string `json:"tags"`
}

func waCreate() *tool.Tool {
	in := tool.SeedObject([]string{"path", "title", "content"},
		waPathArg("Path for the note (e.g., 'projects/wiki-ai/ideas')"),
		tool.Opt("title", tool.Str("Human-readable title")),
		tool.Opt("content", tool.Text("Markdown content")),
		tool.Opt("tags", tool.StrList("Tags for categorization")),
	)
	return &tool.Tool{
		Name: "create_note", Group: tool.GroupNotes, Mutating: true,
		Description: "Create a new note at the specified path.",
		Input:       in,
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *waCreateArgs) (any, string, error) {
			res, err := s.Wiki.Write(ctx, wiki.WriteRequest{Path: a.Path, Content: a.Content, Title: &a.Title, Tags: a.Tags,
				Mutation: wiki.Mutation{Caller: s.Caller}})
			if err != nil {
				return nil, "", err
			}
			path := a.Path
			if len(res.Changes) == 1 {
				path = res.Changes[0].Path
			}
			return nil, fmt.Sprintf("Created note %q at %s", a.Title, path), nil
		}),
	}
}

// --- get_note, get_note_version

type waGetArgs struct {
	Path    string `json:"path"`
	Version string `json:"version"`
}

func waGet() *tool.Tool {
	in := tool.SeedObject([]string{"path"}, waPathArg("Path of the note"))
	return &tool.Tool{
		Name: "get_note", Group: tool.GroupNotes,
		Description: "Retrieve a note by its path.",
		Input:       in,
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *waGetArgs) (any, string, error) {
			text, err := waNote(ctx, s, a.Path, "")
			return nil, text, err
		}),
	}
}

func waVersion() *tool.Tool {
	in := tool.SeedObject([]string{"path", "version"}, waPathArg("Path of the note"), tool.Opt("version", tool.Str("Commit SHA (short or full)")))
	return &tool.Tool{
		Name: "get_note_version", Group: tool.GroupHistory,
		Description: "Read a specific historical version of a note.",
		Input:       in,
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *waGetArgs) (any, string, error) {
			text, err := waNote(ctx, s, a.Path, a.Version)
			return nil, text, err
		}),
	}
}

// waNote renders a note, or its version at a commit, as Wiki-AI does: the
// title, its path, tags and dates, then the body.
func waNote(ctx context.Context, s *tool.Env, path, version string) (string, error) {
	req := wiki.ReadRequest{Path: path, Version: version, MaxChars: int(s.Wiki.Options().MaxNoteSize)}
	res, err := s.Wiki.Read(ctx, req)
	if err != nil {
		return "", err
	}
	if res.Created == nil || res.Modified == nil {
		// The seed's note always has its **Created:** and **Updated:**
		// lines: while the history index is first built, git's dates
		// are not known yet, so wait for it (a history waits, with
		// progress) and read the note again.
		if _, err := s.Wiki.History(ctx, wiki.HistoryRequest{Path: res.Path, Limit: 1}); err == nil {
			if again, err := s.Wiki.Read(ctx, req); err == nil {
				res = again
			}
		}
	}
	var b strings.Builder
	short := ""
	if version != "" {
		short = version
		if len(res.Commit) >= 7 {
			short = res.Commit[:7]
		}
		fmt.Fprintf(&b, "# %s (version %s)\n\n", res.Title, short)
	} else {
		fmt.Fprintf(&b, "# %s\n\n", res.Title)
	}
	fmt.Fprintf(&b, "**Path:** %s\n", res.Path)
	if len(res.Tags) > 0 {
		fmt.Fprintf(&b, "**Tags:** %s\n", strings.Join(res.Tags, ", "))
	}
	if version != "" {
		fmt.Fprintf(&b, "**Version:** %s\n", short)
	}
	if c := stamp(res.Created); c != "" {
		fmt.Fprintf(&b, "**Created:** %s\n", c)
	}
	if m := stamp(res.Modified); m != "" {
		fmt.Fprintf(&b, "**Updated:** %s\n", m)
	}
	body := res.Content[res.BodyStart:]
	b.WriteString("\n---\n\n")
	b.WriteString(strings.TrimLeft(body, "\n"))
	return b.String(), nil
}

// --- update_note

type waUpdateArgs struct {
	Path            string   `json:"path"`
	NewPath         string   `json:"new_path"`
	Title           *string  `json:"title"`
	Content         *string  `json:"content"`
	Tags            []string `json:"tags"`
	AddTags         []string `json:"add_tags"`
	RemoveTags      []string `json:"remove_tags"`
	UpdateBacklinks bool     `json:"update_backlinks"`
}

func waUpdate() *tool.Tool {
	in := tool.SeedObject([]string{"path"},
		waPathArg("Current path of the note"),
		tool.Opt("new_path", tool.Str("New path (to move the note)")),
		tool.Opt("title", tool.Str("New title")),
		tool.Opt("content", tool.Text("New content (replaces existing)")),
		tool.Opt("tags", tool.StrList("Replace all tags (mutually exclusive with add_tags/remove_tags)")),
		tool.Opt("add_tags", tool.StrList("Tags to add atomically")),
		tool.Opt("remove_tags", tool.StrList("Tags to remove atomically")),
		tool.Opt("update_backlinks", tool.Boolean("When moving, update wiki links in other notes (default: false)")),
	)
	return &tool.Tool{
		Name: "update_note", Group: tool.GroupNotes, Mutating: true,
		Description: "Update an existing note. All fields except `path` are optional - only provided fields are updated. " +
			"To move a note, provide `new_path`. All the changes asked for are one git commit: all made, or none.",
		Input: in,
		Run:   tool.Bind(in, runWAUpdate),
	}
}

func runWAUpdate(ctx context.Context, s *tool.Env, a *waUpdateArgs) (any, string, error) {
	if a.Tags != nil && (a.AddTags != nil || a.RemoveTags != nil) {
		return nil, "", tool.ArgError("tags", "cannot be combined with add_tags or remove_tags: tags replaces them all")
	}
	if a.NewPath == "" && a.Title == nil && a.Content == nil && a.Tags == nil && a.AddTags == nil && a.RemoveTags == nil {
		return nil, "", wiki.Errorf(wiki.CodeInvalidParams, "nothing to update").
			WithHint("give new_path, title, content, tags, add_tags or remove_tags")
	}
	cur, err := s.Wiki.Read(ctx, wiki.ReadRequest{Path: a.Path, MaxChars: int(s.Wiki.Options().MaxNoteSize)})
	if err != nil {
		return nil, "", err
	}
	// A move comes first in the commit (the core moves before it edits);
	// the other changes then apply to the moved note.
	var steps []wiki.Change
	newPath := strings.TrimSuffix(a.NewPath, ".md")
	moving := a.NewPath != "" && newPath != cur.Path
	target := cur.Path
	if moving {
		steps = append(steps, wiki.Change{Move: &wiki.MoveRequest{Path: cur.Path, NewPath: a.NewPath, LeaveLinks: !a.UpdateBacklinks}})
		target = newPath
	}
	if a.Content != nil {
		// The content replaces the body; the frontmatter (title, tags)
		// stays, as Wiki-AI keeps them apart from the content.
		body := *a.Content
		if strings.HasPrefix(body, "---\n") {
			body = "\n" + body // not frontmatter: the note's is kept
		}
		steps = append(steps, wiki.Change{Write: &wiki.WriteRequest{Path: target, Content: cur.Content[:cur.BodyStart] + body, Overwrite: true}})
	}
	if a.Title != nil || a.Tags != nil || a.AddTags != nil || a.RemoveTags != nil {
		ch := note.MetaChange{Title: a.Title, Tags: a.Tags, AddTags: a.AddTags, RemoveTags: a.RemoveTags}
		if a.Tags != nil && len(a.Tags) == 0 {
			ch.Tags, ch.RemoveTags = nil, cur.Tags // replace all with none
		}
		steps = append(steps, wiki.Change{Metadata: &wiki.MetadataRequest{Path: target, Change: ch}})
	}
	if len(steps) == 0 {
		return nil, fmt.Sprintf("Updated note at %s", cur.Path), nil
	}
	res, err := s.Wiki.Apply(ctx, wiki.ApplyRequest{Changes: steps, Mutation: wiki.Mutation{ExpectedVersion: cur.Version, Caller: s.Caller}})
	if err != nil {
		return nil, "", err
	}
	if !moving {
		return nil, fmt.Sprintf("Updated note at %s", cur.Path), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Moved note from %s to %s\n", cur.Path, newPath)
	switch {
	case a.UpdateBacklinks && len(res.LinksUpdated) > 0:
		fmt.Fprintf(&b, "\nUpdated links in %s:\n", render.Plural(len(res.LinksUpdated), "note"))
		linkCounts(&b, res.LinksUpdated)
	case !a.UpdateBacklinks && len(res.BrokenLinks) > 0:
		fmt.Fprintf(&b, "\nWarning: %s have links that now point to the old path:\n", render.Plural(len(res.BrokenLinks), "note"))
		linkCounts(&b, res.BrokenLinks)
		b.WriteString("\nUse update_backlinks: true to automatically update these links.\n")
	}
	return nil, strings.TrimRight(b.String(), "\n"), nil
}

// --- delete_note

func waDelete() *tool.Tool {
	in := tool.SeedObject([]string{"path"}, waPathArg("Path of the note to delete"))
	return &tool.Tool{
		Name: "delete_note", Group: tool.GroupNotes, Mutating: true, Destructive: true,
		Description: "Delete a note by path.",
		Input:       in,
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *waGetArgs) (any, string, error) {
			res, err := s.Wiki.Delete(ctx, wiki.DeleteRequest{Path: a.Path, Confirm: true, Mutation: wiki.Mutation{Caller: s.Caller}})
			if err != nil {
				return nil, "", err
			}
			path := a.Path
			if len(res.Changes) == 1 {
				path = res.Changes[0].Path
			}
			var b strings.Builder
			fmt.Fprintf(&b, "Deleted note at %s\n", path)
			if len(res.BrokenLinks) > 0 {
				fmt.Fprintf(&b, "\nWarning: %s have links that are now broken:\n", render.Plural(len(res.BrokenLinks), "note"))
				linkCounts(&b, res.BrokenLinks)
				b.WriteString("\nThese links were not modified. Update or remove them manually if desired.\n")
			}
			return nil, strings.TrimRight(b.String(), "\n"), nil
		}),
	}
}

// --- search_notes

type waSearchArgs struct {
	Query  string  `json:"query"`
	Limit  float64 `json:"limit"`
	Cursor string  `json:"cursor"`
}

func waSearch() *tool.Tool {
	in := tool.SeedObject([]string{"query"},
		tool.Opt("query", tool.Str("Search query with optional field filters")),
		tool.Opt("limit", seedNumber("Max results (default 10)")),
		tool.Opt("cursor", tool.Str("Pagination cursor from previous search")),
	)
	return &tool.Tool{
		Name: "search_notes", Group: tool.GroupSearch,
		Description: "Full-text search across all notes with pagination.",
		Input:       in,
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *waSearchArgs) (any, string, error) {
			limit, err := count("limit", a.Limit, 10, 100)
			if err != nil {
				return nil, "", err
			}
			// The cursor carries how many results came before, to say
			// "showing 11-20".
			offset, cursor := 0, ""
			if a.Cursor != "" {
				b, err := base64.RawURLEncoding.DecodeString(a.Cursor)
				n, rest, ok := strings.Cut(string(b), ":")
				if offset, _ = strconv.Atoi(n); err != nil || !ok || offset < 0 {
					return nil, "", tool.ArgError("cursor", "is not a cursor from search_notes")
				}
				cursor = rest
			}
			res, err := s.Wiki.Search(ctx, wiki.SearchParams{Query: a.Query, Limit: limit, Cursor: cursor, Snippets: 1})
			if err != nil {
				return nil, "", err
			}
			if len(res.Results) == 0 && offset == 0 {
				if sc := res.Scan; sc != nil && !sc.Complete {
					// Not every note was searched: no match is not "no note".
					return nil, render.Search(a.Query, res), nil
				}
				return nil, fmt.Sprintf("No notes found matching %q", a.Query), nil
			}
			var b strings.Builder
			fmt.Fprintf(&b, "Found %s (showing %d-%d):\n", render.Plural(res.Total, "note"), offset+1, offset+len(res.Results))
			for _, h := range res.Results {
				fmt.Fprintf(&b, "\n- **%s** (%s)\n", h.Title, h.Path)
				if len(h.Tags) > 0 {
					fmt.Fprintf(&b, "  Tags: %s\n", strings.Join(h.Tags, ", "))
				}
				if len(h.Snippets) > 0 {
					snippet := strings.NewReplacer("«", "**", "»", "**", "…", "").Replace(h.Snippets[0].Text)
					fmt.Fprintf(&b, "  ...%s...\n", strings.TrimSpace(snippet))
				}
			}
			if res.NextCursor != "" {
				next := base64.RawURLEncoding.EncodeToString([]byte(strconv.Itoa(offset+len(res.Results)) + ":" + res.NextCursor))
				fmt.Fprintf(&b, "\nNext page cursor: %s", next)
			} else {
				b.WriteString("\nNo more results.")
			}
			return nil, b.String(), nil
		}),
	}
}

// --- browse

type waBrowseArgs struct {
	Path string `json:"path"`
}

func waBrowse() *tool.Tool {
	in := tool.SeedObject(nil, waPathArg("Folder path to browse (omit or empty for root)"))
	return &tool.Tool{
		Name: "browse", Group: tool.GroupSearch,
		Description: "List notes and subfolders at a given path. Used for navigating the folder structure. A folder with " +
			"no notes, or none at all (git keeps no empty folders), answers that there is nothing at this path.",
		Input: in,
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *waBrowseArgs) (any, string, error) {
			folder := strings.Trim(a.Path, "/")
			res, err := s.Wiki.List(ctx, wiki.ListRequest{Path: folder, Sort: "alpha", Limit: 500})
			if wiki.CodeOf(err) == wiki.CodeNotFound {
				res, err = &wiki.ListResult{}, nil // git keeps no empty folder: an empty one is a missing one
			}
			if err != nil {
				return nil, "", err
			}
			var b strings.Builder
			shown := folder + "/"
			if folder == "" {
				shown = "/"
			}
			fmt.Fprintf(&b, "Browsing: %s\n", shown)
			line := func(n wiki.NoteSummary) {
				fmt.Fprintf(&b, "- **%s** (%s)", n.Title, n.Path)
				if n.Modified != nil {
					fmt.Fprintf(&b, " - Updated %s", n.Modified.In(s.Wiki.Options().Location).Format(time.DateOnly))
				}
				b.WriteString("\n")
			}
			if res.Note != nil {
				b.WriteString("\nNote at this path:\n")
				line(*res.Note)
			}
			if len(res.Folders) > 0 {
				b.WriteString("\nFolders:\n")
				for _, f := range res.Folders {
					fmt.Fprintf(&b, "- %s/    (%s)\n", f.Path, render.Plural(f.Notes, "note"))
				}
			}
			if len(res.Notes) > 0 {
				b.WriteString("\nNotes at this level:\n")
				for _, n := range res.Notes {
					line(n)
				}
			}
			if res.Note == nil && len(res.Folders) == 0 && len(res.Notes) == 0 {
				b.WriteString("\nNo folders or notes at this path.\n")
			}
			return nil, strings.TrimRight(b.String(), "\n"), nil
		}),
	}
}

// --- list_tags

func waListTags() *tool.Tool {
	in := tool.SeedObject(nil)
	return &tool.Tool{
		Name: "list_tags", Group: tool.GroupSearch,
		Description: "Get all tags currently in use across all notes.",
		Input:       in,
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, _ *struct{}) (any, string, error) {
			tags, err := s.Wiki.Tags(ctx, wiki.TagsRequest{})
			if err != nil {
				return nil, "", err
			}
			if len(tags) == 0 {
				return nil, "No tags in use yet.", nil
			}
			var b strings.Builder
			b.WriteString("Tags in use:\n\n")
			for _, t := range tags {
				fmt.Fprintf(&b, "- %s (%s)\n", t.Tag, render.Plural(t.Count, "note"))
			}
			return nil, strings.TrimRight(b.String(), "\n"), nil
		}),
	}
}

// --- get_backlinks

func waBacklinks() *tool.Tool {
	in := tool.SeedObject([]string{"path"}, waPathArg("Path of the note to find backlinks for"))
	return &tool.Tool{
		Name: "get_backlinks", Group: tool.GroupLinks,
		Description: "Get all notes that link to a given note path. Useful for understanding relationships and impact of changes.",
		Input:       in,
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *waGetArgs) (any, string, error) {
			res, err := s.Wiki.Links(ctx, wiki.LinksRequest{Path: a.Path, Direction: wiki.DirIn, Limit: 200})
			if err != nil {
				return nil, "", err
			}
			path := res.Path
			var b strings.Builder
			switch {
			case len(res.Incoming) == 0 && res.Exists:
				return nil, "No notes link to " + path, nil
			case len(res.Incoming) == 0:
				return nil, "Note " + path + " does not exist, and no notes link to it.", nil
			case !res.Exists:
				fmt.Fprintf(&b, "Note %s does not exist.\n\nHowever, %s have links to this path:\n", path, render.Plural(len(res.Incoming), "note"))
				for _, in := range res.Incoming {
					fmt.Fprintf(&b, "- %s (%s)\n", in.Path, render.Plural(len(in.Links), "link"))
				}
				return nil, strings.TrimRight(b.String(), "\n"), nil
			}
			fmt.Fprintf(&b, "Backlinks to %s:\n", path)
			for _, in := range res.Incoming {
				lines := make([]string, len(in.Links))
				for i, l := range in.Links {
					lines[i] = strconv.Itoa(l.Line)
				}
				word := "line"
				if len(lines) > 1 {
					word = "lines"
				}
				fmt.Fprintf(&b, "\n- **%s** (%s)\n  %s - %s %s\n", in.Title, in.Path, render.Plural(len(in.Links), "link"), word, strings.Join(lines, ", "))
			}
			return nil, strings.TrimRight(b.String(), "\n"), nil
		}),
	}
}

// --- recent_notes

type waRecentArgs struct {
	Limit float64 `json:"limit"`
	Since string  `json:"since"`
}

func waRecent() *tool.Tool {
	in := tool.SeedObject(nil,
		tool.Opt("limit", seedNumber("Max notes to return (default 10)")),
		tool.Opt("since", tool.Str("Only notes updated after this ISO8601 timestamp")),
	)
	return &tool.Tool{
		Name: "recent_notes", Group: tool.GroupSearch,
		Description: "Get recently created or updated notes. Useful for resuming work and finding recent activity.",
		Input:       in,
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *waRecentArgs) (any, string, error) {
			limit, err := count("limit", a.Limit, 10, 100)
			if err != nil {
				return nil, "", err
			}
			var since time.Time
			if a.Since != "" {
				if since, _, err = s.Wiki.ParseDate(a.Since); err != nil {
					return nil, "", err
				}
			}
			res, err := s.Wiki.RecentChanges(ctx, wiki.RecentRequest{Since: since, Limit: limit})
			if err != nil {
				return nil, "", err
			}
			if len(res.Results) == 0 {
				if a.Since != "" {
					return nil, "No notes updated since " + a.Since, nil
				}
				return nil, "No recent notes.", nil
			}
			var b strings.Builder
			if a.Since != "" {
				fmt.Fprintf(&b, "Notes updated since %s:\n", a.Since)
			} else {
				b.WriteString("Recent notes:\n")
			}
			for _, n := range res.Results {
				fmt.Fprintf(&b, "\n- **%s** (%s)\n  Updated: %s\n", n.Title, n.Path, n.Modified.UTC().Format(time.RFC3339))
				if len(n.Tags) > 0 {
					fmt.Fprintf(&b, "  Tags: %s\n", strings.Join(n.Tags, ", "))
				}
			}
			return nil, strings.TrimRight(b.String(), "\n"), nil
		}),
	}
}

// --- get_note_history

type waHistoryArgs struct {
	Path  string  `json:"path"`
	Limit float64 `json:"limit"`
}

func waHistory() *tool.Tool {
	in := tool.SeedObject([]string{"path"}, waPathArg("Path of the note"), tool.Opt("limit", seedNumber("Max versions to return (default 50)")))
	return &tool.Tool{
		Name: "get_note_history", Group: tool.GroupHistory,
		Description: "Get the version history for a note, showing all changes with timestamps and authors.",
		Input:       in,
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *waHistoryArgs) (any, string, error) {
			limit, err := count("limit", a.Limit, 50, 100)
			if err != nil {
				return nil, "", err
			}
			res, err := s.Wiki.History(ctx, wiki.HistoryRequest{Path: a.Path, Limit: limit})
			if wiki.CodeOf(err) == wiki.CodeNotFound {
				// The seed answers a path git never had in words, not
				// as an error.
				return nil, "No version history available for " + a.Path, nil
			}
			if err != nil {
				return nil, "", err
			}
			if len(res.Revisions) == 0 {
				return nil, "No version history available for " + a.Path, nil
			}
			var b strings.Builder
			fmt.Fprintf(&b, "Version history for %s:\n", res.Path)
			for _, r := range res.Revisions {
				fmt.Fprintf(&b, "\n- %s (%s) by %s\n  %s\n", r.Short, r.Date.UTC().Format(time.RFC3339), authorName(r.Author), r.Subject)
			}
			return nil, strings.TrimRight(b.String(), "\n"), nil
		}),
	}
}

// authorName is the name of "Name <email>".
func authorName(author string) string {
	if i := strings.Index(author, " <"); i > 0 {
		return author[:i]
	}
	return author
}

// --- diff_note_versions

type waDiffArgs struct {
	Path        string `json:"path"`
	FromVersion string `json:"from_version"`
	ToVersion   string `json:"to_version"`
}

func waDiff() *tool.Tool {
	in := tool.SeedObject([]string{"path", "from_version", "to_version"},
		waPathArg("Path of the note"),
		tool.Opt("from_version", tool.Str("Starting version (commit SHA)")),
		tool.Opt("to_version", tool.Str("Ending version (commit SHA)")),
	)
	return &tool.Tool{
		Name: "diff_note_versions", Group: tool.GroupHistory,
		Description: "Show the differences between two versions of a note.",
		Input:       in,
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *waDiffArgs) (any, string, error) {
			res, err := s.Wiki.Diff(ctx, wiki.DiffRequest{Path: a.Path, From: a.FromVersion, To: a.ToVersion})
			if err != nil {
				return nil, "", err
			}
			short := func(c string) string { return c[:min(7, len(c))] }
			text := fmt.Sprintf("Diff for %s (%s → %s):\n\n+%d additions, -%d deletions\n\n%s",
				a.Path, short(res.From), short(res.To), res.Additions, res.Deletions, res.Diff)
			return nil, strings.TrimRight(text, "\n"), nil
		}),
	}
}

// --- restore_note_version

func waRestore() *tool.Tool {
	in := tool.SeedObject([]string{"path", "version"}, waPathArg("Path of the note"), tool.Opt("version", tool.Str("Version SHA to restore")))
	return &tool.Tool{
		Name: "restore_note_version", Group: tool.GroupHistory, Mutating: true,
		Description: "Restore a note to a previous version. This creates a NEW commit with the old content, preserving all history (never rewrites git history).",
		Input:       in,
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *waGetArgs) (any, string, error) {
			if _, err := s.Wiki.Restore(ctx, wiki.RestoreRequest{Path: a.Path, Version: a.Version, Mutation: wiki.Mutation{Caller: s.Caller}}); err != nil {
				return nil, "", err
			}
			return nil, fmt.Sprintf("Restored note '%s' to version %s", a.Path, a.Version), nil
		}),
	}
}
