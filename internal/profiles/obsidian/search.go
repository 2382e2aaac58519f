package obsidian

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// Search and discovery: by text, date, pattern and property, and the lists of notes and folders.

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
					x["context"] = clipped(r.Content[r.BodyStart:], width)
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
