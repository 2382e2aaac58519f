package cairn

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/tools"
	"github.com/wikid/wikid/internal/wiki"
)

const instructions = `Cairn tools over a git repository of markdown notes (served by wikid). Paths have no .md ` +
	`extension. Every change is one git commit, so nothing is lost: the repository's history has every version.`

var words = wiki.Words{
	"read": "cairn_read", "write": "cairn_write", "edit": "cairn_patch", "metadata": "cairn_write",
	"delete": "cairn_delete", "move": "git mv", "apply": "cairn_patch",
	"list": "cairn_list", "search": "cairn_search", "resolve": "cairn_search", "grep": "cairn_search",
	"links": "cairn_links", "broken_links": "cairn_links", "tags": "cairn_search", "sync": "git pull and git push",
	"history": "git log", "diff": "git diff", "blame": "git blame", "activity": "git log",
	"restore": "git restore", "revert": "git revert", "status": "git status", "daily": "cairn_daily",
	"expected_version": "a fresh cairn_read", "overwrite": "cairn_write", "regex_off": "a plain query",
	"read_only": "a read-only server", "version": "a commit",
	// One patch a call and no count of matches; the next page's cursor
	// is the answer's cursor.
	"new_path": "new path", "expected_matches": "", "edits": "", "cursor": "cursor", "next_cursor": "cursor",
}

// Profile is the profile's tool set, as a server serves it.
func Profile() tool.Profile {
	return tool.Profile{Tools: toolSet, Instructions: instructions, Words: words, Plain: true}
}

func toolSet() []*tool.Tool {
	return []*tool.Tool{cairnRead(), cairnWrite(), cairnPatch(), cairnDelete(), cairnSearch(), cairnLinks(), cairnDaily(), cairnList()}
}

// cairnPage is Cairn's default page size of search and list.
const cairnPage = 20

// --- cairn_read

type cairnReadArgs struct {
	Path         string `json:"path"`
	Section      string `json:"section"`
	MetadataOnly bool   `json:"metadata_only"`
}

func cairnRead() *tool.Tool {
	in := tool.SeedObject([]string{"path"},
		tool.Opt("path", tool.Str("Note path e.g. 'entities/person/jamie' or 'daily/2026-02-24'")),
		tool.Opt("section", tool.Str("Heading text (without # prefix) to extract just that section e.g. 'Meetings'. Matches the first heading with this text regardless of level.")),
		tool.Opt("metadata_only", tool.Boolean("Return only frontmatter + backlink list, skip body. Default false.")),
	)
	return &tool.Tool{
		Name: "cairn_read", Group: tool.GroupNotes,
		Description: "Read a note. Returns frontmatter metadata and markdown body. Use section to extract a specific heading. Use metadata_only to get just frontmatter and backlinks without the body.",
		Input:       in,
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *cairnReadArgs) (any, string, error) {
			text, err := cairnReadText(ctx, s, a.Path, a.Section, a.MetadataOnly)
			return nil, text, err
		}),
	}
}

// cairnReadText renders a note as cairn_read does: a frontmatter with its
// title, type, tags, other properties, modified time and backlinks, then
// the body (or the section). With metadataOnly, the body is left out and
// each backlink comes with the line that links.
func cairnReadText(ctx context.Context, s *tool.Env, path, section string, metadataOnly bool) (string, error) {
	res, err := s.Wiki.Read(ctx, wiki.ReadRequest{Path: path, Section: section, MaxChars: int(s.Wiki.Options().MaxNoteSize)})
	if err != nil {
		return "", err
	}
	links, err := s.Wiki.Links(ctx, wiki.LinksRequest{Path: res.Path, Direction: wiki.DirIn, Limit: 200})
	if err != nil {
		return "", err
	}
	meta := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, v any) {
		var val yaml.Node
		if err := val.Encode(v); err != nil {
			return
		}
		if val.Kind == yaml.SequenceNode && !metadataOnly || key == "tags" || key == "aliases" {
			val.Style = yaml.FlowStyle
		}
		meta.Content = append(meta.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, &val)
	}
	add("title", res.Title)
	if t, ok := res.Properties["type"]; ok {
		add("type", t)
	}
	if len(res.Tags) > 0 {
		add("tags", res.Tags)
	}
	if len(res.Aliases) > 0 {
		add("aliases", res.Aliases)
	}
	for _, k := range tool.SortedKeys(res.Properties) {
		switch k {
		case "title", "type", "tags", "tag", "aliases", "alias", "modified":
			continue
		}
		add(k, res.Properties[k])
	}
	if res.Modified != nil {
		add("modified", res.Modified.UTC().Truncate(time.Second))
	}
	if metadataOnly {
		type backlink struct {
			Path    string `yaml:"path"`
			Context string `yaml:"context,omitempty"`
		}
		list := make([]backlink, 0, len(links.Incoming))
		for _, b := range links.Incoming {
			bl := backlink{Path: b.Path}
			if len(b.Links) > 0 {
				bl.Context = b.Links[0].Context
			}
			list = append(list, bl)
		}
		add("backlinks", list)
	} else {
		paths := make([]string, 0, len(links.Incoming))
		for _, b := range links.Incoming {
			paths = append(paths, b.Path)
		}
		add("backlinks", paths)
	}
	fm, err := yaml.Marshal(meta)
	if err != nil {
		return "", err
	}
	out := "---\n" + string(fm) + "---\n"
	if metadataOnly {
		return out, nil
	}
	body := res.Content
	if section == "" {
		body = body[res.BodyStart:]
	}
	return out + "\n" + strings.TrimLeft(body, "\n"), nil
}

// --- cairn_write

type cairnWriteArgs struct {
	Path    string   `json:"path"`
	Content string   `json:"content"`
	Tags    []string `json:"tags"`
	Aliases []string `json:"aliases"`
}

func cairnWrite() *tool.Tool {
	in := tool.SeedObject([]string{"path", "content"},
		tool.Opt("path", tool.Str("Note path e.g. 'entities/person/jamie'")),
		tool.Opt("content", tool.Text("Full markdown body. May include YAML frontmatter.")),
		tool.Opt("tags", tool.StrList("Tags to set (merged with any in frontmatter)")),
		tool.Opt("aliases", tool.StrList("Alternative names that resolve backlinks to this note")),
	)
	return &tool.Tool{
		Name: "cairn_write", Group: tool.GroupNotes, Mutating: true, Idempotent: true,
		Description: "Create or overwrite a note. Frontmatter in content is parsed and merged with explicit params. WikiLinks in content are automatically indexed. Aliases allow this note to be found when other notes link using those names.",
		Input:       in,
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *cairnWriteArgs) (any, string, error) {
			res, err := s.Wiki.Write(ctx, wiki.WriteRequest{Path: a.Path, Content: a.Content, Tags: a.Tags, Aliases: a.Aliases,
				Overwrite: true, Mutation: wiki.Mutation{Caller: s.Caller}})
			if err != nil {
				return nil, "", err
			}
			// links_found counts the links of the content given, as the
			// seed does, whether or not it changed the note.
			out := map[string]any{"path": a.Path, "created": false, "links_found": len(note.Parse(a.Path, []byte(a.Content)).Links)}
			if len(res.Changes) == 1 {
				out["path"] = res.Changes[0].Path
				out["created"] = res.Changes[0].Action == wiki.ActionCreated
			}
			text, err := tool.PlainJSON(out)
			return nil, text, err
		}),
	}
}

// --- cairn_patch

type cairnPatchArgs struct {
	Path    string `json:"path"`
	Op      string `json:"op"`
	Content string `json:"content"`
	Section string `json:"section"`
	Find    string `json:"find"`
}

func cairnPatch() *tool.Tool {
	in := tool.SeedObject([]string{"path", "op", "content"},
		tool.Opt("path", tool.Str("Note path")),
		tool.Opt("op", tool.Enum("Operation type", note.OpAppend, note.OpPrepend, note.OpReplace, note.OpAppendSection, note.OpPrependSection)),
		tool.Opt("content", tool.Text("Content to insert or replacement text")),
		tool.Opt("section", tool.Str("Heading text (without # prefix) for section ops e.g. 'Meetings'")),
		tool.Opt("find", tool.Text("Substring to find for 'replace' op")),
	)
	return &tool.Tool{
		Name: "cairn_patch", Group: tool.GroupNotes, Mutating: true,
		Description: "Edit a note without rewriting it. Supports append/prepend to the whole note or a specific section, and find-replace. The note must already exist. WikiLinks in new content are automatically indexed.",
		Input:       in,
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *cairnPatchArgs) (any, string, error) {
			added, err := cairnPatchNote(ctx, s, a.Path, a.Op, a.Content, a.Section, a.Find)
			if err != nil {
				return nil, "", err
			}
			text, err := tool.PlainJSON(map[string]any{"path": a.Path, "op": a.Op, "bytes_added": added})
			return nil, text, err
		}),
	}
}

// cairnPatchNote applies one Cairn patch as one commit and returns how
// many bytes it added to the note (negative when it shortened it).
func cairnPatchNote(ctx context.Context, s *tool.Env, path, op, content, section, find string) (int64, error) {
	switch {
	case op == note.OpReplace && find == "":
		return 0, tool.ArgError("find", "is required for op replace")
	case (op == note.OpAppendSection || op == note.OpPrependSection) && section == "":
		return 0, tool.ArgError("section", "is required for op %s", op)
	}
	e := note.Edit{Op: op, Content: content}
	switch op {
	case note.OpReplace:
		e.Find = find
	case note.OpAppendSection, note.OpPrependSection:
		e.Section = section
	}
	res, err := s.Wiki.Edit(ctx, wiki.EditRequest{Path: path, Edits: []note.Edit{e}, Mutation: wiki.Mutation{Caller: s.Caller}})
	if err != nil {
		return 0, err
	}
	return sizeChange(ctx, s.Wiki, res), nil
}

// sizeChange returns how many bytes a one-note change added to the note.
func sizeChange(ctx context.Context, w *wiki.Wiki, res *wiki.Result) int64 {
	if res.Commit == "" || len(res.Changes) != 1 {
		return 0
	}
	size := func(commit string) int64 {
		snap, err := w.Snapshot(ctx, commit)
		if err != nil {
			return 0
		}
		f, err := snap.Stat(ctx, res.Changes[0].File)
		if err != nil {
			return 0
		}
		return f.Size
	}
	info, err := w.Commit(ctx, res.Commit)
	if err != nil || len(info.Parents) == 0 {
		return size(res.Commit)
	}
	return size(res.Commit) - size(info.Parents[0])
}

// --- cairn_delete

type cairnDeleteArgs struct {
	Path string `json:"path"`
}

func cairnDelete() *tool.Tool {
	in := tool.SeedObject([]string{"path"}, tool.Opt("path", tool.Str("Note path to delete")))
	return &tool.Tool{
		Name: "cairn_delete", Group: tool.GroupNotes, Mutating: true, Destructive: true,
		Description: "Delete a note. By default, also removes this note from the backlink index. Does not modify the content of other notes that reference this one.",
		Input:       in,
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *cairnDeleteArgs) (any, string, error) {
			res, err := s.Wiki.Delete(ctx, wiki.DeleteRequest{Path: a.Path, Confirm: true, Mutation: wiki.Mutation{Caller: s.Caller}})
			if err != nil {
				return nil, "", err
			}
			path := a.Path
			if len(res.Changes) == 1 {
				path = res.Changes[0].Path
			}
			text, err := tool.PlainJSON(map[string]any{"deleted": path})
			return nil, text, err
		}),
	}
}

// --- cairn_search

// withPathPrefix scopes a query to the notes whose path starts with
// prefix. Cairn's keys are a flat space where a prefix is a string
// prefix, not a folder: fan/fan-0 scopes to fan/fan-01 … fan/fan-09, and
// entities/person to entities/person/ada and entities/personal alike.
func withPathPrefix(query, prefix string) (string, error) {
	prefix = strings.TrimLeft(prefix, "/")
	if prefix == "" {
		return query, nil
	}
	if strings.ContainsAny(prefix, `"\*?`) {
		return "", tool.ArgError("path_prefix", `is a path prefix, without " \ * or ?`)
	}
	scope := `path:"` + prefix + `*"`
	if strings.TrimSpace(query) == "" {
		return scope, nil
	}
	return "(" + query + ") " + scope, nil
}

type cairnSearchArgs struct {
	Query         string   `json:"query"`
	Tags          []string `json:"tags"`
	PathPrefix    string   `json:"path_prefix"`
	BacklinksTo   string   `json:"backlinks_to"`
	ModifiedSince string   `json:"modified_since"`
	Limit         int      `json:"limit"`
	Cursor        string   `json:"cursor"`
}

func cairnSearch() *tool.Tool {
	in := tool.SeedObject(nil,
		tool.Opt("query", tool.Str("Full-text search query")),
		tool.Opt("tags", tool.StrList("Filter to notes with all of these tags")),
		tool.Opt("path_prefix", tool.Str("Scope search to a path prefix e.g. 'entities/person'")),
		tool.Opt("backlinks_to", tool.Str("Find all notes that link to this path")),
		tool.Opt("modified_since", tool.Str("ISO date — return only notes modified after this date")),
		tool.Opt("limit", tool.SeedInt("Max results per page. Default 20.")),
		tool.Opt("cursor", tool.Str("Pagination cursor from previous response")),
	)
	return &tool.Tool{
		Name: "cairn_search", Group: tool.GroupSearch,
		Description: "Search notes by content, tags, or backlinks. Returns matching note paths with context snippets. At least one search parameter is required.",
		Input:       in,
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *cairnSearchArgs) (any, string, error) {
			if a.Query == "" && len(a.Tags) == 0 && a.PathPrefix == "" && a.BacklinksTo == "" && a.ModifiedSince == "" {
				return nil, "", wiki.Errorf(wiki.CodeInvalidParams, "at least one search parameter is required").
					WithHint("give query, tags, path_prefix, backlinks_to or modified_since")
			}
			limit, err := cairnLimit(a.Limit)
			if err != nil {
				return nil, "", err
			}
			var since time.Time
			if a.ModifiedSince != "" {
				if since, _, err = s.Wiki.ParseDate(a.ModifiedSince); err != nil {
					return nil, "", err
				}
			}
			query, err := withPathPrefix(a.Query, a.PathPrefix)
			if err != nil {
				return nil, "", err
			}
			res, err := s.Wiki.Search(ctx, wiki.SearchParams{Query: query, Tags: a.Tags,
				BacklinksTo: a.BacklinksTo, ModifiedSince: since, Limit: limit, Cursor: a.Cursor, Snippets: 1})
			if err != nil {
				return nil, "", err
			}
			type hit struct {
				Path     string   `json:"path"`
				Title    string   `json:"title"`
				Snippet  string   `json:"snippet"`
				Tags     []string `json:"tags"`
				Modified string   `json:"modified"`
			}
			out := struct {
				Results []hit  `json:"results"`
				Total   int    `json:"total"`
				Cursor  string `json:"cursor,omitempty"`
			}{Results: []hit{}, Total: res.Total, Cursor: res.NextCursor}
			for _, h := range res.Results {
				x := hit{Path: h.Path, Title: h.Title, Tags: h.Tags, Modified: h.Modified.UTC().Format(time.RFC3339)}
				if x.Tags == nil {
					x.Tags = []string{}
				}
				if len(h.Snippets) > 0 {
					x.Snippet = "..." + strings.NewReplacer("«", "", "»", "", "…", "").Replace(h.Snippets[0].Text) + "..."
				}
				out.Results = append(out.Results, x)
			}
			text, err := tool.PlainJSON(out)
			return nil, text, err
		}),
	}
}

// cairnLimit is a page size: Cairn's default for 0, else 1 to 100.
func cairnLimit(n int) (int, error) {
	switch {
	case n == 0:
		return cairnPage, nil
	case n < 0 || n > 100:
		return 0, tool.ArgError("limit", "is %d; give 1 to 100", n)
	}
	return n, nil
}

// --- cairn_links

type cairnLinksArgs struct {
	Path      string `json:"path"`
	Depth     int    `json:"depth"`
	Direction string `json:"direction"`
}

func cairnLinks() *tool.Tool {
	in := tool.SeedObject([]string{"path"},
		tool.Opt("path", tool.Str("Note path")),
		tool.Opt("depth", tool.SeedInt("Graph traversal depth. Default 1.")),
		tool.Opt("direction", tool.Enum("Link direction. Default 'both'.", "in", "out", "both")),
	)
	return &tool.Tool{
		Name: "cairn_links", Group: tool.GroupLinks,
		Description: "Get backlinks and outgoing links for a note. Useful for understanding context and relationships without reading full documents.",
		Input:       in,
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *cairnLinksArgs) (any, string, error) {
			dir := wiki.Direction(a.Direction)
			if dir == "" {
				dir = wiki.DirBoth
			}
			depth := a.Depth
			switch {
			case depth == 0:
				depth = 1
			case depth < 0 || depth > 5:
				return nil, "", tool.ArgError("depth", "is %d; give 1 to 5", depth)
			}
			res, err := s.Wiki.Links(ctx, wiki.LinksRequest{Path: a.Path, Direction: dir, Depth: depth, Limit: 200})
			if err != nil {
				return nil, "", err
			}
			type in struct {
				Path    string `json:"path"`
				Title   string `json:"title"`
				Context string `json:"context,omitempty"`
				Depth   int    `json:"depth,omitempty"`
			}
			type out struct {
				Path  string `json:"path"`
				Title string `json:"title"`
				Depth int    `json:"depth,omitempty"`
			}
			var ans struct {
				Incoming []in
				Outgoing []out
			}
			if dir != wiki.DirOut {
				ans.Incoming = []in{}
				for _, b := range res.Incoming {
					x := in{Path: b.Path, Title: b.Title}
					if len(b.Links) > 0 {
						x.Context = b.Links[0].Context
					}
					ans.Incoming = append(ans.Incoming, x)
				}
			}
			if dir != wiki.DirIn {
				ans.Outgoing = []out{}
				seen := map[string]bool{}
				for _, l := range res.Outgoing {
					if l.Path == "" || seen[l.Path] {
						continue
					}
					seen[l.Path] = true
					ans.Outgoing = append(ans.Outgoing, out{Path: l.Path, Title: l.Title})
				}
			}
			// Deeper levels: the notes reached through the first ones,
			// with their distance.
			for _, level := range res.Neighbors {
				if level.Depth < 2 {
					continue
				}
				for _, n := range level.Notes {
					if n.Direction != wiki.DirOut && dir != wiki.DirOut {
						ans.Incoming = append(ans.Incoming, in{Path: n.Path, Title: n.Title, Depth: level.Depth})
					}
					if n.Direction != wiki.DirIn && dir != wiki.DirIn {
						ans.Outgoing = append(ans.Outgoing, out{Path: n.Path, Title: n.Title, Depth: level.Depth})
					}
				}
			}
			// A direction asked for is listed, even empty; the other is not.
			shown := map[string]any{"path": res.Path}
			if ans.Incoming != nil {
				shown["incoming"] = ans.Incoming
			}
			if ans.Outgoing != nil {
				shown["outgoing"] = ans.Outgoing
			}
			text, err := tool.PlainJSON(shown)
			return nil, text, err
		}),
	}
}

// --- cairn_daily

type cairnDailyArgs struct {
	Date    string `json:"date"`
	Op      string `json:"op"`
	Content string `json:"content"`
	Section string `json:"section"`
}

func cairnDaily() *tool.Tool {
	in := tool.SeedObject([]string{"op"},
		tool.Opt("date", tool.Str("ISO date e.g. '2026-02-24'. Defaults to today in workspace timezone.")),
		tool.Opt("op", tool.Enum("Operation. 'read' returns the full note. Others delegate to cairn_patch.", "read", note.OpAppend, note.OpAppendSection, note.OpPrependSection)),
		tool.Opt("content", tool.Text("Content for append/section ops")),
		tool.Opt("section", tool.Str("Heading text (without # prefix) for section ops e.g. 'Meetings'")),
	)
	return &tool.Tool{
		Name: "cairn_daily", Group: tool.GroupNotes, Mutating: true,
		Description: "Read or append to a daily note. Creates the note with minimal frontmatter if it doesn't exist. Date defaults to today (in workspace timezone).",
		Input:       in,
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *cairnDailyArgs) (any, string, error) {
			date, err := s.Wiki.DailyDate(a.Date)
			if err != nil {
				return nil, "", tool.ArgError("date", "%q is not an ISO date such as 2026-02-24", a.Date)
			}
			if a.Op != "read" && a.Content == "" {
				return nil, "", tool.ArgError("content", "is required for op %s", a.Op)
			}
			path := "daily/" + date
			// The day's note, made on first use with Cairn's minimal
			// frontmatter. A write that fails leaves no note behind.
			created := false
			if _, err := s.Wiki.Read(ctx, wiki.ReadRequest{Path: path, MetadataOnly: true}); wiki.CodeOf(err) == wiki.CodeNotFound {
				fm := fmt.Sprintf("---\ntitle: %s\ntype: daily\ntags: [daily]\n---\n", date)
				steps := []wiki.Change{{Write: &wiki.WriteRequest{Path: path, Content: fm}}}
				if a.Op != "read" {
					e := note.Edit{Op: a.Op, Content: a.Content, Section: a.Section}
					steps = append(steps, wiki.Change{Edit: &wiki.EditRequest{Path: path, Edits: []note.Edit{e}}})
				}
				res, err := s.Wiki.Apply(ctx, wiki.ApplyRequest{Changes: steps, Mutation: wiki.Mutation{Caller: s.Caller}})
				if err != nil {
					return nil, "", err
				}
				created = true
				if a.Op != "read" {
					text, err := tool.PlainJSON(map[string]any{"path": path, "op": a.Op, "bytes_added": sizeChange(ctx, s.Wiki, res), "created": true})
					return nil, text, err
				}
			} else if err != nil {
				return nil, "", err
			}
			if a.Op == "read" {
				text, err := cairnReadText(ctx, s, path, "", false)
				return nil, text, err
			}
			added, err := cairnPatchNote(ctx, s, path, a.Op, a.Content, a.Section, "")
			if err != nil {
				return nil, "", err
			}
			text, err := tool.PlainJSON(map[string]any{"path": path, "op": a.Op, "bytes_added": added, "created": created})
			return nil, text, err
		}),
		Reads: func(raw []byte) bool { return tools.DailyReads(raw) },
	}
}

// --- cairn_list

type cairnListArgs struct {
	PathPrefix string `json:"path_prefix"`
	Recursive  bool   `json:"recursive"`
	Sort       string `json:"sort"`
	Limit      int    `json:"limit"`
	Cursor     string `json:"cursor"`
}

func cairnList() *tool.Tool {
	in := tool.SeedObject(nil,
		tool.Opt("path_prefix", tool.Str("Path prefix to list. Default: root (all notes).")),
		tool.Opt("recursive", tool.Boolean("Include nested paths. Default false.")),
		tool.Opt("sort", tool.Enum("Sort order. Default 'modified' (most recent first).", "modified", "created", "alpha")),
		tool.Opt("limit", tool.SeedInt("Max results per page. Default 20.")),
		tool.Opt("cursor", tool.Str("Pagination cursor from previous response")),
	)
	return &tool.Tool{
		Name: "cairn_list", Group: tool.GroupSearch,
		Description: "List notes under a path prefix. Returns paths, titles, and modification dates. No content. Supports pagination.",
		Input:       in,
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *cairnListArgs) (any, string, error) {
			limit, err := cairnLimit(a.Limit)
			if err != nil {
				return nil, "", err
			}
			sort := a.Sort
			if sort == "" {
				sort = "modified"
			}
			res, err := s.Wiki.List(ctx, wiki.ListRequest{Path: strings.Trim(a.PathPrefix, "/"), Recursive: a.Recursive, Sort: sort, Limit: limit, Cursor: a.Cursor})
			if err != nil {
				return nil, "", err
			}
			type entry struct {
				Path     string `json:"path"`
				Title    string `json:"title"`
				Type     any    `json:"type,omitempty"`
				Modified string `json:"modified,omitempty"`
			}
			out := struct {
				PathPrefix string  `json:"path_prefix"`
				Notes      []entry `json:"notes"`
				Total      int     `json:"total"`
				Cursor     string  `json:"cursor,omitempty"`
			}{PathPrefix: a.PathPrefix, Notes: []entry{}, Total: res.Total, Cursor: res.NextCursor}
			for _, n := range res.Notes {
				e := entry{Path: n.Path, Title: n.Title}
				if n.Modified != nil {
					e.Modified = n.Modified.UTC().Format(time.RFC3339)
				}
				// The type is the frontmatter's, read from the note's
				// metadata: a page is at most 100 notes.
				if r, err := s.Wiki.Read(ctx, wiki.ReadRequest{Path: n.Path, MetadataOnly: true}); err == nil {
					e.Type = r.Properties["type"]
				}
				out.Notes = append(out.Notes, e)
			}
			text, err := tool.PlainJSON(out)
			return nil, text, err
		}),
	}
}
