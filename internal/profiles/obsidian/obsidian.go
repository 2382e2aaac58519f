package obsidian

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/tools"

	"github.com/wikid/wikid/internal/imaging"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

const instructions = `Obsidian vault tools over a git repository (served by wikid). Paths are vault-relative ` +
	`with their extension: Projects/AI Research.md. Every change is one git commit: nothing is lost, git history keeps it.`

var words = wiki.Words{
	"read": "read_note", "write": "create_note", "edit": "update_note", "metadata": "update_tags",
	"delete": "delete_note", "move": "move_note", "apply": "update_note",
	"list": "list_notes", "search": "search_notes", "resolve": "search_notes", "grep": "search_by_regex",
	"links": "get_backlinks", "broken_links": "find_broken_links", "tags": "list_tags", "sync": "git pull and git push",
	"history": "git log", "diff": "git diff", "blame": "git blame", "activity": "search_by_date",
	"restore": "git restore", "revert": "git revert", "status": "git status", "daily": "create_note",
	"expected_version": "a fresh read_note", "overwrite": "set overwrite: true", "regex_off": "search_notes",
	"read_only": "a read-only server", "version": "a commit",
}

// Profile is the profile's tool set, as a server serves it.
func Profile() tool.Profile {
	return tool.Profile{Tools: toolSet, Instructions: instructions, Words: words, Plain: true}
}

func toolSet() []*tool.Tool {
	return []*tool.Tool{
		obRead(), obCreate(), obUpdate(), obDelete(),
		obSearch(), obSearchByDate(), obSearchByRegex(), obSearchByProperty(), obListNotes(), obListFolders(),
		obMoveNote(), obMoveFolder(), obCreateFolder(), obTags("add_tags"), obTags("update_tags"), obTags("remove_tags"),
		obNoteInfo(), obListTags(),
		obBacklinks(), obOutgoing(), obBroken(),
		obReadImage(), obNoteImages(),
	}
}

// obRun adapts an Obsidian tool: its answer is a JSON object as text.
func obRun[A any](in *tool.Schema, f func(ctx context.Context, s *tool.Env, a *A) (any, error)) tool.RunFunc {
	return tool.Bind(in, func(ctx context.Context, s *tool.Env, a *A) (any, string, error) {
		v, err := f(ctx, s, a)
		if err != nil {
			return nil, "", err
		}
		if c, ok := v.(tool.WithMedia); ok {
			return v, c.(interface{ text() string }).text(), nil
		}
		text, err := tool.PlainJSON(v)
		return nil, text, err
	})
}

// clipped is clip without its report.
func clipped(s string, n int) string {
	c, _ := tool.Clip(s, n)
	return c
}

func obPath(desc string) tool.Prop { return tool.Opt("path", tool.Str(desc)) }

func obInt(desc string, min, max, def float64) *tool.Schema {
	return (&tool.Schema{Type: "integer", Description: desc, Min: &min, Max: &max}).Def(def)
}

// obInRange checks an optional integer argument, def when absent.
func obInRange(arg string, v *int, min, max, def int) (int, error) {
	switch {
	case v == nil:
		return def, nil
	case *v < min || *v > max:
		return 0, tool.ArgError(arg, "is %d; give %d to %d", *v, min, max)
	}
	return *v, nil
}

// obFile is a note's path as Obsidian names it: with its extension.
func obFile(ctx context.Context, s *tool.Env, notePath string) string {
	if snap, err := tool.HeadSnapshot(ctx, s); err == nil {
		if f := tool.FileOf(ctx, snap, notePath); f != "" {
			return f
		}
	}
	return notePath + ".md"
}

// --- Note management

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

// --- Search and discovery

type obSearchArgs struct {
	Query         string `json:"query"`
	ContextLength *int   `json:"context_length"`
	MaxResults    *int   `json:"max_results"`
}

func obSearch() *tool.Tool {
	in := tool.SeedObject([]string{"query"},
		tool.Opt("query", tool.Str("What to search for in your notes. Use plain text or special prefixes: 'tag:' for tags (supports hierarchical tags), 'path:' for folders/filenames, 'property:' for metadata (property:status:active).")),
		tool.Opt("context_length", obInt("How much text to show around each match for context.", 10, 500, 100)),
		tool.Opt("max_results", obInt("Maximum number of results to return.", 1, 500, 50)),
	)
	return &tool.Tool{
		Name: "search_notes", Group: tool.GroupSearch,
		Description: "Search for notes containing specific text or matching search criteria. Use search_by_date for dates, list_notes to list.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obSearchArgs) (any, error) {
			width, err := obInRange("context_length", a.ContextLength, 10, 500, 100)
			if err != nil {
				return nil, err
			}
			max, err := obInRange("max_results", a.MaxResults, 1, 500, 50)
			if err != nil {
				return nil, err
			}
			hits, total, err := obSearchAll(ctx, s, obQuery(a.Query), max)
			if err != nil {
				return nil, err
			}
			results := []map[string]any{}
			for _, h := range hits {
				r := map[string]any{"path": obFile(ctx, s, h.Path), "title": h.Title, "score": h.Score, "tags": orEmpty(h.Tags)}
				if len(h.Snippets) > 0 {
					r["line"] = h.Snippets[0].Line
					r["context"] = clipped(strings.NewReplacer("«", "", "»", "").Replace(h.Snippets[0].Text), 2*width)
				}
				results = append(results, r)
			}
			return map[string]any{"results": results, "count": len(results), "total_count": total,
				"query": map[string]any{"query": a.Query, "context_length": width, "max_results": max}, "truncated": total > len(results)}, nil
		}),
	}
}

// obQuery turns the Obsidian search prefixes into wikid's query language:
// path:Daily/ is a folder, path:x a path glob, property:k:v a frontmatter
// key; the rest is the same.
func obQuery(q string) string {
	fields := strings.Fields(q)
	for i, f := range fields {
		switch {
		case strings.HasPrefix(f, "path:"):
			p := strings.TrimPrefix(f, "path:")
			if strings.HasSuffix(p, "/") {
				fields[i] = "folder:" + strconv.Quote(strings.TrimSuffix(p, "/"))
			} else {
				fields[i] = "path:" + strconv.Quote(strings.TrimSuffix(p, "*")+"*")
			}
		case strings.HasPrefix(f, "property:"):
			if k, v, ok := strings.Cut(strings.TrimPrefix(f, "property:"), ":"); ok {
				fields[i] = k + ":" + v
			}
		}
	}
	return strings.Join(fields, " ")
}

// obSearchAll returns up to max hits of a query, a page of at most 100 at a
// time, and how many there are.
func obSearchAll(ctx context.Context, s *tool.Env, query string, max int) ([]wiki.SearchHit, int, error) {
	var hits []wiki.SearchHit
	cursor, total := "", 0
	for len(hits) < max {
		res, err := s.Wiki.Search(ctx, wiki.SearchParams{Query: query, Limit: min(100, max-len(hits)), Cursor: cursor, Snippets: 1})
		if err != nil {
			return nil, 0, err
		}
		hits, total = append(hits, res.Results...), res.Total
		if cursor = res.NextCursor; cursor == "" {
			break
		}
	}
	return hits, total, nil
}

type obDateArgs struct {
	DateType string `json:"date_type"`
	DaysAgo  *int   `json:"days_ago"`
	Operator string `json:"operator"`
}

func obSearchByDate() *tool.Tool {
	in := tool.SeedObject(nil,
		tool.Opt("date_type", tool.Enum("Which date to search by: when the note was first created or last modified", "created", "modified").Def("modified")),
		tool.Opt("days_ago", obInt("How many days back to search from today. 0 = today, 1 = yesterday, 7 = last week", 0, 365, 7)),
		tool.Opt("operator", tool.Enum("'within' = all notes in the last N days, 'exactly' = only notes from exactly N days ago", "within", "exactly").Def("within")),
	)
	return &tool.Tool{
		Name: "search_by_date", Group: tool.GroupSearch,
		Description: "Search for notes by creation or modification date, in the wiki's time zone. Use search_notes for content.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obDateArgs) (any, error) {
			days, err := obInRange("days_ago", a.DaysAgo, 0, 365, 7)
			if err != nil {
				return nil, err
			}
			field := a.DateType
			if field == "" {
				field = "modified"
			}
			day := s.Wiki.Options().Now().In(s.Wiki.Options().Location).AddDate(0, 0, -days).Format(time.DateOnly)
			q := field + ":>=" + day
			if a.Operator == "exactly" {
				q = field + ":" + day
			}
			res, err := s.Wiki.Search(ctx, wiki.SearchParams{Query: q, Sort: field, Limit: 100})
			if err != nil {
				return nil, err
			}
			results := []map[string]any{}
			for _, h := range res.Results {
				when := h.Modified
				if field == "created" && h.Created != nil {
					when = *h.Created
				}
				results = append(results, map[string]any{"path": obFile(ctx, s, h.Path), "title": h.Title, "date": when.UTC().Format(time.RFC3339)})
			}
			return map[string]any{"results": results, "count": len(results), "query": map[string]any{"date_type": field, "days_ago": days,
				"operator": cmp.Or(a.Operator, "within"), "since": day}, "truncated": res.Total > len(results)}, nil
		}),
	}
}

type obRegexArgs struct {
	Pattern       string   `json:"pattern"`
	Flags         []string `json:"flags"`
	ContextLength *int     `json:"context_length"`
	MaxResults    *int     `json:"max_results"`
}

func obSearchByRegex() *tool.Tool {
	in := tool.SeedObject([]string{"pattern"},
		tool.Opt("pattern", tool.Str("Regular expression pattern (RE2 syntax) for advanced searches: URLs, code patterns, TODO items.")),
		tool.Opt("flags", &tool.Schema{Type: "array", Description: "'ignorecase' = case-insensitive; 'multiline' and 'dotall' change nothing, as each line is matched on its own", Items: tool.Enum("", "ignorecase", "multiline", "dotall")}),
		tool.Opt("context_length", obInt("Characters to show around matches", 10, 500, 100)),
		tool.Opt("max_results", obInt("Maximum number of notes to return.", 1, 200, 50)),
	)
	return &tool.Tool{
		Name: "search_by_regex", Group: tool.GroupSearch,
		Description: "Search for notes with a regular expression, line by line. Use search_notes for plain text.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obRegexArgs) (any, error) {
			width, err := obInRange("context_length", a.ContextLength, 10, 500, 100)
			if err != nil {
				return nil, err
			}
			max, err := obInRange("max_results", a.MaxResults, 1, 200, 50)
			if err != nil {
				return nil, err
			}
			res, err := s.Wiki.Grep(ctx, wiki.GrepRequest{Pattern: a.Pattern, Regex: true, CaseSensitive: !slices.Contains(a.Flags, "ignorecase"), Limit: 1000})
			if err != nil {
				return nil, err
			}
			re, _ := regexp.Compile(map[bool]string{true: "(?i)", false: ""}[slices.Contains(a.Flags, "ignorecase")] + a.Pattern)
			var results []map[string]any
			index := map[string]int{}
			for _, m := range res.Matches {
				i, ok := index[m.Path]
				if !ok {
					if len(results) == max {
						continue
					}
					i = len(results)
					index[m.Path] = i
					results = append(results, map[string]any{"path": obFile(ctx, s, m.Path), "match_count": 0, "matches": []map[string]any{}})
				}
				match := ""
				if re != nil {
					match = re.FindString(m.Text)
				}
				r := results[i]
				r["match_count"] = r["match_count"].(int) + 1
				r["matches"] = append(r["matches"].([]map[string]any), map[string]any{"line": m.Line, "match": match, "context": clipped(m.Text, 2*width)})
			}
			if results == nil {
				results = []map[string]any{}
			}
			return map[string]any{"results": results, "count": len(results), "query": map[string]any{"pattern": a.Pattern, "flags": orEmpty(a.Flags),
				"context_length": width, "max_results": max}, "truncated": res.Truncated || len(index) > max}, nil
		}),
	}
}

type obPropertyArgs struct {
	PropertyName  string  `json:"property_name"`
	Value         *string `json:"value"`
	Operator      string  `json:"operator"`
	ContextLength *int    `json:"context_length"`
}

func obSearchByProperty() *tool.Tool {
	in := tool.SeedObject([]string{"property_name"},
		tool.Opt("property_name", tool.Str("The frontmatter property to search for (e.g., 'status', 'priority').")),
		tool.Opt("value", tool.Str("The value to match against. Not needed when using 'exists'.")),
		tool.Opt("operator", tool.Enum("How to compare: '=' exact match, '!=' not equal, '>/</>=/<=' for numbers/dates, 'contains' partial match, 'exists' just checks presence",
			"=", "!=", ">", "<", ">=", "<=", "contains", "exists").Def("=")),
		tool.Opt("context_length", obInt("Characters of note content to include", 0, 500, 100)),
	)
	return &tool.Tool{
		Name: "search_by_property", Group: tool.GroupSearch,
		Description: "Search for notes by their frontmatter property values; a list property matches when an item does. " +
			"It reads every note's frontmatter, so it is slower than search_notes, which matches key:value itself. Use search_notes for content.",
		Input: in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obPropertyArgs) (any, error) {
			width, err := obInRange("context_length", a.ContextLength, 0, 500, 100)
			if err != nil {
				return nil, err
			}
			op := cmp.Or(a.Operator, "=")
			if op != "exists" && a.Value == nil {
				return nil, tool.ArgError("value", "is required for operator %s", op)
			}
			notes, err := obAllNotes(ctx, s, "")
			if err != nil {
				return nil, err
			}
			results := []map[string]any{}
			for _, n := range notes {
				r, err := s.Wiki.Read(ctx, wiki.ReadRequest{Path: n.Path, MaxChars: max(width, 1)})
				if err != nil {
					continue
				}
				v, ok := r.Properties[a.PropertyName]
				if !ok && (a.PropertyName == "tags" || a.PropertyName == "tag") {
					v, ok = anySlice(r.Tags), len(r.Tags) > 0
				}
				if !ok || !obCompare(v, op, a.Value) {
					continue
				}
				x := map[string]any{"path": obFile(ctx, s, r.Path), "title": r.Title, "value": v}
				if width > 0 {
					x["context"] = clipped(r.Content[note.Parse(r.Path, []byte(r.Content)).BodyStart:], width)
				}
				results = append(results, x)
			}
			q := map[string]any{"property_name": a.PropertyName, "operator": op}
			if a.Value != nil {
				q["value"] = *a.Value
			}
			return map[string]any{"results": results, "count": len(results), "query": q, "truncated": false}, nil
		}),
	}
}

func anySlice(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// obCompare compares a frontmatter value with want: numbers as numbers,
// dates and other text as text, a list by its items (its length for < >).
func obCompare(v any, op string, want *string) bool {
	if op == "exists" {
		return true
	}
	w := *want
	if list, ok := v.([]any); ok {
		switch op {
		case "=", "contains":
			for _, item := range list {
				if obCompare(item, op, want) {
					return true
				}
			}
			return false
		case "!=":
			return !obCompare(v, "=", want)
		}
		v = len(list)
	}
	got := fmt.Sprint(v)
	if t, ok := v.(time.Time); ok {
		got = t.Format(time.DateOnly)
	}
	switch op {
	case "=":
		return strings.EqualFold(got, w)
	case "!=":
		return !strings.EqualFold(got, w)
	case "contains":
		return strings.Contains(strings.ToLower(got), strings.ToLower(w))
	}
	c := strings.Compare(got, w)
	if a, err1 := strconv.ParseFloat(got, 64); err1 == nil {
		if b, err2 := strconv.ParseFloat(w, 64); err2 == nil {
			c = map[bool]int{true: -1, false: 1}[a < b]
			if a == b {
				c = 0
			}
		}
	}
	switch op {
	case ">":
		return c > 0
	case "<":
		return c < 0
	case ">=":
		return c >= 0
	case "<=":
		return c <= 0
	}
	return false
}

// obAllNotes lists every note under folder ("" for all), by path.
func obAllNotes(ctx context.Context, s *tool.Env, folder string) ([]wiki.NoteSummary, error) {
	var out []wiki.NoteSummary
	cursor := ""
	for {
		res, err := s.Wiki.List(ctx, wiki.ListRequest{Path: folder, Recursive: true, Sort: "alpha", Limit: wiki.MaxListLimit, Cursor: cursor})
		if err != nil {
			return nil, err
		}
		if res.Note != nil && cursor == "" {
			out = append(out, *res.Note)
		}
		out = append(out, res.Notes...)
		if cursor = res.NextCursor; cursor == "" {
			return out, nil
		}
	}
}

type obListArgs struct {
	Directory *string `json:"directory"`
	Recursive *bool   `json:"recursive"`
}

func (a *obListArgs) scope() (string, bool, map[string]any) {
	dir, rec := "", true
	if a.Directory != nil {
		dir = strings.Trim(*a.Directory, "/")
	}
	if a.Recursive != nil {
		rec = *a.Recursive
	}
	return dir, rec, map[string]any{"directory": dir, "recursive": rec}
}

func obListNotes() *tool.Tool {
	in := tool.SeedObject(nil,
		tool.Opt("directory", tool.Str("Specific folder to list notes from. Leave empty to list entire vault.")),
		tool.Opt("recursive", tool.Boolean("Include notes from all subfolders. Set to false for only immediate children.").Def(true)),
	)
	return &tool.Tool{
		Name: "list_notes", Group: tool.GroupSearch,
		Description: "List notes in the vault or a specific directory. Use search_notes to find notes by content.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obListArgs) (any, error) {
			dir, rec, scope := a.scope()
			var notes []wiki.NoteSummary
			var err error
			if rec {
				notes, err = obAllNotes(ctx, s, dir)
			} else {
				var res *wiki.ListResult
				if res, err = s.Wiki.List(ctx, wiki.ListRequest{Path: dir, Sort: "alpha", Limit: wiki.MaxListLimit}); err == nil {
					notes = res.Notes
				}
			}
			if err != nil {
				return nil, err
			}
			items := []map[string]any{}
			for _, n := range notes {
				file := obFile(ctx, s, n.Path)
				items = append(items, map[string]any{"path": file, "name": path.Base(file)})
			}
			return map[string]any{"items": items, "total": len(items), "scope": scope}, nil
		}),
	}
}

func obListFolders() *tool.Tool {
	in := tool.SeedObject(nil,
		tool.Opt("directory", tool.Str("Specific directory to list folders from (optional, defaults to root)")),
		tool.Opt("recursive", tool.Boolean("Whether to include all nested subfolders").Def(true)),
	)
	return &tool.Tool{
		Name: "list_folders", Group: tool.GroupSearch,
		Description: "List folders in the vault or a specific directory; a folder is there while it holds a note (git keeps no empty folder). Use list_notes for notes.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obListArgs) (any, error) {
			dir, rec, scope := a.scope()
			notes, err := obAllNotes(ctx, s, dir)
			if err != nil {
				return nil, err
			}
			counts := map[string]int{}
			for _, n := range notes {
				rel := strings.TrimPrefix(n.Path, dir+"/")
				if dir == "" {
					rel = n.Path
				}
				parts := strings.Split(rel, "/")
				for i := 1; i < len(parts) && (rec || i == 1); i++ {
					f := strings.Join(parts[:i], "/")
					if dir != "" {
						f = dir + "/" + f
					}
					counts[f]++
				}
			}
			items := []map[string]any{}
			for _, f := range tool.SortedKeys(counts) {
				items = append(items, map[string]any{"path": f, "name": path.Base(f), "note_count": counts[f]})
			}
			return map[string]any{"items": items, "total": len(items), "scope": scope}, nil
		}),
	}
}

// --- Organization

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
	links := 0
	for _, n := range res.LinksUpdated {
		links += len(n.Links)
	}
	src, dst := strings.TrimSuffix(from, "/"), strings.TrimSuffix(to, "/")
	if kind == "note" && len(res.Changes) == 1 {
		dst = res.Changes[0].File
	}
	return map[string]any{"success": true, "source": src, "destination": dst, "type": kind,
		"details": map[string]any{"items_moved": len(res.Changes), "links_updated": links, "notes_relinked": len(res.LinksUpdated), "commit": res.Commit}}, nil
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
			body := r.Content[note.Parse(r.Path, []byte(r.Content)).BodyStart:]
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

// --- Link management

type obBacklinksArgs struct {
	Path           string `json:"path"`
	IncludeContext *bool  `json:"include_context"`
	ContextLength  *int   `json:"context_length"`
}

func obBacklinks() *tool.Tool {
	in := tool.SeedObject([]string{"path"},
		obPath("Path to the note to find backlinks for"),
		tool.Opt("include_context", tool.Boolean("Include the text surrounding each link").Def(true)),
		tool.Opt("context_length", obInt("How much surrounding text to show for each link (in characters)", 50, 500, 100)),
	)
	return &tool.Tool{
		Name: "get_backlinks", Group: tool.GroupLinks,
		Description: "Find all notes that link to a specific note, from the link index (fast at any size). Use get_outgoing_links for links from it.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obBacklinksArgs) (any, error) {
			width, err := obInRange("context_length", a.ContextLength, 50, 500, 100)
			if err != nil {
				return nil, err
			}
			withContext := a.IncludeContext == nil || *a.IncludeContext
			res, err := s.Wiki.Links(ctx, wiki.LinksRequest{Path: a.Path, Direction: wiki.DirIn, Limit: 200})
			if err != nil {
				return nil, err
			}
			findings := []map[string]any{}
			for _, b := range res.Incoming {
				file := obFile(ctx, s, b.Path)
				for _, l := range b.Links {
					f := map[string]any{"source_path": file, "source_title": b.Title, "line": l.Line, "link_type": l.Kind, "link_text": l.Target}
					if withContext {
						f["context"] = clipped(l.Context, width)
					}
					findings = append(findings, f)
				}
			}
			return map[string]any{"findings": findings, "summary": map[string]any{"total_backlinks": len(findings), "unique_sources": len(res.Incoming),
				"note_exists": res.Exists}, "target": a.Path, "scope": map[string]any{"include_context": withContext, "context_length": width}}, nil
		}),
	}
}

type obOutgoingArgs struct {
	Path          string `json:"path"`
	CheckValidity bool   `json:"check_validity"`
}

func obOutgoing() *tool.Tool {
	in := tool.SeedObject([]string{"path"},
		obPath("Path to the note to extract links from"),
		tool.Opt("check_validity", tool.Boolean("Also check if each linked note actually exists in your vault").Def(false)),
	)
	return &tool.Tool{
		Name: "get_outgoing_links", Group: tool.GroupLinks,
		Description: "List all links from a specific note, with their types. Use get_backlinks for links to it.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obOutgoingArgs) (any, error) {
			res, err := s.Wiki.Links(ctx, wiki.LinksRequest{Path: a.Path, Direction: wiki.DirOut, Limit: 200})
			if err != nil {
				return nil, err
			}
			findings := []map[string]any{}
			broken := 0
			for _, l := range res.Outgoing {
				f := map[string]any{"target": l.Target, "type": l.Kind, "line": l.Line}
				if l.Heading != "" {
					f["heading"] = l.Heading
				}
				if a.CheckValidity {
					f["exists"] = l.Broken == ""
					if l.Broken != "" {
						f["reason"], broken = l.Broken, broken+1
					} else {
						f["resolved_path"] = l.Path
					}
				}
				findings = append(findings, f)
			}
			summary := map[string]any{"total_links": len(findings)}
			if a.CheckValidity {
				summary["broken_links"] = broken
			}
			return map[string]any{"findings": findings, "summary": summary, "target": a.Path, "scope": map[string]any{"check_validity": a.CheckValidity}}, nil
		}),
	}
}

type obBrokenArgs struct {
	Directory  string `json:"directory"`
	SingleNote string `json:"single_note"`
}

func obBroken() *tool.Tool {
	in := tool.SeedObject(nil,
		tool.Opt("directory", tool.Str("Check only this folder and its subfolders. Leave empty to check entire vault.")),
		tool.Opt("single_note", tool.Str("Check links in just this one note instead of the whole vault or directory")),
	)
	return &tool.Tool{
		Name: "find_broken_links", Group: tool.GroupLinks,
		Description: "Find all broken links in the vault, a directory, or a single note. Use get_outgoing_links for every link of a note.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obBrokenArgs) (any, error) {
			findings := []map[string]any{}
			target := "vault"
			if a.SingleNote != "" {
				target = a.SingleNote
				res, err := s.Wiki.Links(ctx, wiki.LinksRequest{Path: a.SingleNote, Direction: wiki.DirOut, Limit: 200})
				if err != nil {
					return nil, err
				}
				for _, l := range res.Outgoing {
					if l.Broken != "" {
						findings = append(findings, map[string]any{"source_path": a.SingleNote, "line": l.Line, "target": l.Target, "type": l.Kind, "reason": l.Broken})
					}
				}
			} else {
				if a.Directory != "" {
					target = a.Directory
				}
				cursor := ""
				for {
					res, err := s.Wiki.FindBrokenLinks(ctx, wiki.BrokenLinksRequest{Folder: strings.Trim(a.Directory, "/"), Limit: 200, Cursor: cursor})
					if err != nil {
						return nil, err
					}
					for _, l := range res.Links {
						findings = append(findings, map[string]any{"source_path": obFile(ctx, s, l.Path), "line": l.Line, "target": l.Target, "type": l.Kind, "reason": l.Reason})
					}
					if cursor = res.NextCursor; cursor == "" || len(findings) >= 5000 {
						break
					}
				}
			}
			sources := map[any]bool{}
			for _, f := range findings {
				sources[f["source_path"]] = true
			}
			return map[string]any{"findings": findings, "summary": map[string]any{"broken_links": len(findings), "affected_notes": len(sources)},
				"target": target, "scope": map[string]any{"directory": a.Directory, "single_note": a.SingleNote}}, nil
		}),
	}
}

// --- Image management

type obImageArgs struct {
	Path            string `json:"path"`
	IncludeMetadata bool   `json:"include_metadata"`
}

func obReadImage() *tool.Tool {
	in := tool.SeedObject([]string{"path"},
		obPath("Path to the image file relative to vault root"),
		tool.Opt("include_metadata", tool.Boolean("Include file size and other metadata about the image").Def(false)),
	)
	return &tool.Tool{
		Name: "read_image", Group: tool.GroupNotes,
		Description: "Read an image file (PNG, JPEG, GIF, WebP; SVG as text) for analysis, scaled down past 1600 px or 1 MB. Use view_note_images for a note's images.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obImageArgs) (any, error) {
			img, err := tools.LoadImage(ctx, s.Wiki, a.Path, tools.ImageWidth)
			if err != nil {
				return nil, err
			}
			return &obImages{images: []*tools.ImageResult{img}, metadata: a.IncludeMetadata}, nil
		}),
	}
}

// obImages are images answered as MCP image content, after a text that
// lists them.
type obImages struct {
	note     string
	images   []*tools.ImageResult
	missing  []string
	metadata bool
}

func (o *obImages) Media() []tool.Media {
	var out []tool.Media
	for _, img := range o.images {
		out = append(out, img.Media()...)
	}
	return out
}

func (o *obImages) text() string {
	list := []map[string]any{}
	for _, img := range o.images {
		m := map[string]any{"path": img.Path, "mime_type": img.MIMEType}
		if o.metadata || o.note != "" {
			m["width"], m["height"], m["size"], m["scaled"] = img.Width, img.Height, img.Size, img.Scaled
		}
		list = append(list, m)
	}
	v := map[string]any{"success": true, "images": list, "count": len(list)}
	if o.note != "" {
		v["path"] = o.note
		v["missing"] = orEmpty(o.missing)
	}
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

type obNoteImagesArgs struct {
	Path       string `json:"path"`
	ImageIndex *int   `json:"image_index"`
	MaxWidth   *int   `json:"max_width"`
}

func obNoteImages() *tool.Tool {
	zero := 0.0
	in := tool.SeedObject([]string{"path"},
		obPath("Path to the note containing images"),
		tool.Opt("image_index", &tool.Schema{Type: "integer", Description: "Get only the Nth image from the note (0 = first image). Leave empty to get all images.", Min: &zero}),
		tool.Opt("max_width", obInt("Resize images wider than this. Images smaller than this are unchanged.", 1, 4096, 800)),
	)
	return &tool.Tool{
		Name: "view_note_images", Group: tool.GroupNotes,
		Description: "Extract the images a note embeds (![[image.png]] or ![alt](path)), scaled to max_width; at most 10. Use read_image for one image file.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obNoteImagesArgs) (any, error) {
			width, err := obInRange("max_width", a.MaxWidth, 1, 4096, 800)
			if err != nil {
				return nil, err
			}
			res, err := s.Wiki.Links(ctx, wiki.LinksRequest{Path: a.Path, Direction: wiki.DirOut, Limit: 200})
			if err != nil {
				return nil, err
			}
			var files []string
			out := &obImages{note: a.Path}
			for _, l := range res.Outgoing {
				if imaging.TypeOf(l.Target) == "" && imaging.TypeOf(l.Path) == "" {
					continue
				}
				if l.Path == "" {
					out.missing = append(out.missing, l.Target)
					continue
				}
				files = append(files, l.Path)
			}
			if a.ImageIndex != nil {
				if *a.ImageIndex < 0 || *a.ImageIndex >= len(files) {
					return nil, tool.ArgError("image_index", "is %d; the note embeds %d images", *a.ImageIndex, len(files))
				}
				files = files[*a.ImageIndex : *a.ImageIndex+1]
			}
			for _, f := range files[:min(len(files), 10)] {
				img, err := tools.LoadImage(ctx, s.Wiki, f, width)
				if err != nil {
					out.missing = append(out.missing, f)
					continue
				}
				out.images = append(out.images, img)
			}
			return out, nil
		}),
	}
}
