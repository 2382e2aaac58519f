package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// queryLanguage is the query language in brief, for the tool description:
// every field and operator of package grammar.
const queryLanguage = `Query: word, word* (prefix), "phrase", title:x, tag:x, folder:a/b, path:a/b* (glob), links:x, ` +
	`linkedfrom:x, frontmatter key:value; created:/modified: >=2024-06-01, <2024-06, 2024..2025; ` +
	`a b (all, then most), a AND b, a OR b, -x or NOT x, ( ); quote values: tag:"a b".`

type searchArgs struct {
	Query         string   `json:"query"`
	Tags          []string `json:"tags"`
	Folder        string   `json:"folder"`
	BacklinksTo   string   `json:"backlinks_to"`
	ModifiedSince string   `json:"modified_since"`
	Mode          string   `json:"mode"`
	Sort          string   `json:"sort"`
	Limit         int      `json:"limit"`
	Cursor        string   `json:"cursor"`
}

// searchOutput is a search result page with the flag that says snippets
// were cut.
type searchOutput struct {
	*wiki.SearchResult
	Truncated bool `json:"truncated,omitempty"`
}

// Filters shared by the list tools, explained in the server's
// instructions.
var (
	folderProp = tool.Opt("folder", tool.Str(""))
	cursorProp = tool.Opt("cursor", tool.Str(""))
)

// searchInput is search_notes' input schema; with semantic, with mode.
func searchInput(semantic bool) *tool.Schema {
	props := []tool.Prop{tool.Opt("query", tool.Str(""))}
	if semantic {
		props = append(props, tool.Opt("mode", tool.Enum("text: the query language; semantic: by meaning, query in plain words; hybrid: both, fused.",
			wiki.SearchText, wiki.SearchSemantic, wiki.SearchHybrid).Def(wiki.SearchText)))
	}
	return tool.Object("", append(props,
		tool.Opt("tags", tool.StrList("All of these.")),
		folderProp,
		tool.Opt("backlinks_to", tool.Str("")),
		tool.Opt("modified_since", tool.Str("")),
		tool.Opt("sort", tool.Enum("", "relevance", "modified", "created", "title").Def("relevance")),
		tool.Opt("limit", tool.Integer("", 1, 100).Def(10)),
		cursorProp,
	)...)
}

func searchNotesTool() *tool.Tool {
	in := searchInput(false)
	return &tool.Tool{
		Name: "search_notes", Group: tool.GroupSearch, Title: "Search notes", Idempotent: true,
		Description: "Ranked search with snippets. Use grep_notes for exact text, list_notes to browse. " +
			queryLanguage,
		Input:        in,
		Output:       searchResultSchema(false),
		Run:          tool.Bind(in, runSearch),
		WithSemantic: searchNotesSemanticTool,
	}
}

func runSearch(ctx context.Context, s *tool.Env, a *searchArgs) (any, string, error) {
	if strings.TrimSpace(a.Query) == "" && strings.Join(a.Tags, "") == "" && a.Folder == "" && a.BacklinksTo == "" && a.ModifiedSince == "" {
		return nil, "", wiki.Errorf(wiki.CodeInvalidParams, "search_notes needs a query or a filter (tags, folder, backlinks_to, modified_since)").
			WithHint("give a query; to list notes without one, use list_notes (a folder) or recent_changes (newest first)")
	}
	since, err := parseSince(s, "modified_since", a.ModifiedSince)
	if err != nil {
		return nil, "", err
	}
	res, err := s.Wiki.Search(ctx, wiki.SearchParams{
		Query: a.Query, Tags: a.Tags, Folder: a.Folder, BacklinksTo: a.BacklinksTo, ModifiedSince: since,
		Sort: a.Sort, Limit: a.Limit, Cursor: a.Cursor, Snippets: 1, Mode: a.Mode,
	})
	if err != nil {
		return nil, "", err
	}
	return searchOutputOf(res, a.Sort), render.Search(a.Query, res), nil
}

// searchOutputOf readies a page of hits for the wire: tags never null,
// the created date only when sorting by it, snippets clipped.
func searchOutputOf(res *wiki.SearchResult, sort string) *searchOutput {
	out := &searchOutput{SearchResult: res}
	for i := range res.Results {
		hit := &res.Results[i]
		if hit.Tags == nil {
			hit.Tags = []string{}
		}
		if sort != "created" {
			hit.Created = nil // read_note has it, with where the dates come from
		}
		for j := range hit.Snippets {
			var cut bool
			hit.Snippets[j].Text, cut = tool.Clip(hit.Snippets[j].Text, maxItemChars)
			out.Truncated = out.Truncated || cut
		}
	}
	return out
}

// searchResultSchema is the schema of a page of hits; with semantic, of
// one that may come from a search by meaning.
func searchResultSchema(semantic bool) *tool.Schema {
	s := tool.Object("One page of results.",
		tool.Req("results", tool.ArrayOf("The notes found, best first (or in the sort order).", tool.Object("",
			tool.Req("path", tool.Str("Note path.")),
			tool.Req("title", tool.Str("Title.")),
			tool.Req("tags", tool.StrList("Tags.")),
			tool.Opt("modified", dateTime("Last changed: the frontmatter's date, else the last commit's time.")),
			tool.Opt("created", dateTime("Created, when sorting by it: the frontmatter's date, else the first commit's time.")),
			tool.Req("score", &tool.Schema{Type: "number", Description: "Relevance score.", Digits: 3}),
			tool.Opt("snippets", tool.ArrayOf("Pieces of the note around the matches; matched terms are marked «like this».", tool.Object("",
				tool.Req("line", tool.Integer("Line number in the file.", 1, 1e9)),
				tool.Req("text", tool.Str("The text, at most 500 characters."))))),
			tool.Opt("matched", tool.Integer("Of question_words, how many the note holds.", 1, 1e9)),
		))),
		tool.Req("total", tool.Integer("How many notes match in all.", 0, 1e9)),
		tool.Opt("question_words", tool.Integer("Plain words read as a question: notes with all, then most.", 1, 1e9)),
		tool.Opt("next_cursor", tool.Str("Pass as cursor to get the next page; absent on the last page.")),
		tool.Opt("truncated", tool.Boolean("Set when a snippet was cut to 500 characters.")),
		scanProp,
	)
	if semantic {
		s.Props = append(s.Props, semanticResultProps()...)
	}
	return s
}

// parseSince reads a date argument that starts a span: the first instant
// of the date, read by the wiki's one rule (see wiki.ParseDate).
func parseSince(s *tool.Env, name, v string) (time.Time, error) {
	first, _, err := parseDate(s, name, v)
	return first, err
}

// parseUntil reads a date argument that ends a span: the last instant of
// the date (all of 2024-06-01 for "2024-06-01").
func parseUntil(s *tool.Env, name, v string) (time.Time, error) {
	_, last, err := parseDate(s, name, v)
	return last, err
}

func parseDate(s *tool.Env, name, v string) (first, last time.Time, err error) {
	first, last, err = s.Wiki.ParseDate(v)
	if err != nil {
		var e *wiki.Error
		if errors.As(err, &e) {
			err = tool.ArgError(name, "is not a date: %s", e.Message).
				WithHint("give a date as YYYY-MM-DD (in the wiki's time zone) or a time as 2024-01-15T10:00:00Z")
		}
	}
	return first, last, err
}

type recentArgs struct {
	Limit  int    `json:"limit"`
	Since  string `json:"since"`
	Folder string `json:"folder"`
	Author string `json:"author"`
	Cursor string `json:"cursor"`
}

// RecentOutput is a page of recently changed notes.
type RecentOutput struct {
	Results    []RecentNote `json:"results"`
	Total      int          `json:"total"`
	NextCursor string       `json:"next_cursor,omitempty"`
}

// RecentNote is a recently changed note, as recent_changes and the
// wiki://recent resource list it.
type RecentNote struct {
	Path           string     `json:"path"`
	Title          string     `json:"title"`
	Tags           []string   `json:"tags"`
	Created        *time.Time `json:"created,omitempty"`
	CreatedSource  string     `json:"created_source,omitempty"`
	Modified       time.Time  `json:"modified"`
	ModifiedSource string     `json:"modified_source,omitempty"`
	Commit         string     `json:"commit,omitempty"`
	Author         string     `json:"author,omitempty"`
}

func recentChangesTool() *tool.Tool {
	in := tool.Object("",
		tool.Opt("limit", tool.Integer("", 1, 100).Def(10)),
		tool.Opt("since", tool.Str("")),
		folderProp,
		tool.Opt("author", tool.Str("")),
		cursorProp,
	)
	return &tool.Tool{
		Name: "recent_changes", Group: tool.GroupSearch, Title: "Recently changed notes", Idempotent: true,
		Description: "Notes by last commit, newest first, with author. Use it to see what is new; activity_log for commits.",
		Input:       in,
		Output: tool.Object("One page of notes, newest first.",
			tool.Req("results", tool.ArrayOf("", tool.Object("",
				tool.Req("path", tool.Str("Note path.")),
				tool.Req("title", tool.Str("Title.")),
				tool.Req("tags", tool.StrList("Tags.")),
				tool.Opt("created", &tool.Schema{Type: "string", Format: "date-time", Description: "The frontmatter's created date, else the note's first commit's time."}),
				tool.Opt("created_source", tool.Enum("Where created comes from.", "frontmatter", "git")),
				tool.Req("modified", &tool.Schema{Type: "string", Format: "date-time", Description: "The time of the last commit that changed the note."}),
				tool.Opt("modified_source", tool.Enum("Where modified comes from: the frontmatter's date, else git's.", "frontmatter", "git")),
				tool.Opt("commit", tool.Str("The last commit that changed the note.")),
				tool.Opt("author", tool.Str("That commit's author, Name <email>.")),
			))),
			tool.Req("total", tool.Integer("How many notes match in all.", 0, 1e9)),
			tool.Opt("next_cursor", tool.Str("Pass as cursor to get the next page; absent on the last page.")),
		),
		Run: tool.Bind(in, runRecent),
	}
}

func runRecent(ctx context.Context, s *tool.Env, a *recentArgs) (any, string, error) {
	since, err := parseSince(s, "since", a.Since)
	if err != nil {
		return nil, "", err
	}
	res, err := s.Wiki.RecentChanges(ctx, wiki.RecentRequest{Since: since, Folder: a.Folder, Author: a.Author, Limit: a.Limit, Cursor: a.Cursor})
	if err != nil {
		return nil, "", err
	}
	out := &RecentOutput{Results: make([]RecentNote, len(res.Results)), Total: res.Total, NextCursor: res.NextCursor}
	for i, n := range res.Results {
		out.Results[i] = RecentNote{Path: n.Path, Title: n.Title, Tags: n.Tags, Created: n.Created, CreatedSource: n.CreatedSource,
			Modified: n.Modified, ModifiedSource: n.ModifiedSource, Commit: n.Commit, Author: n.Author}
	}
	return out, RecentText(out, a.Since), nil
}

// NewRecentNote returns the recent note of a search hit.
func NewRecentNote(h wiki.SearchHit) RecentNote {
	if h.Tags == nil {
		h.Tags = []string{}
	}
	return RecentNote{Path: h.Path, Title: h.Title, Tags: h.Tags, Created: h.Created, CreatedSource: h.CreatedSource,
		Modified: h.Modified, ModifiedSource: h.ModifiedSource}
}

// RecentText renders recent changes since a date as text.
func RecentText(out *RecentOutput, since string) string {
	var b render.Builder
	switch {
	case len(out.Results) == 0 && since != "":
		b.Line("No notes changed since %s.", since)
		return b.String()
	case len(out.Results) == 0:
		b.Line("No notes yet.")
		return b.String()
	case since != "":
		b.Line("Notes changed since %s (%d of %d):", since, len(out.Results), out.Total)
	default:
		b.Line("Recently changed notes (%d of %d):", len(out.Results), out.Total)
	}
	for _, n := range out.Results {
		line := fmt.Sprintf("- %s (%s)", n.Title, n.Path)
		if !n.Modified.IsZero() {
			line += " · modified " + render.Time(n.Modified)
		}
		if n.Commit != "" {
			line += " in " + render.ShortID(n.Commit)
		}
		if n.Author != "" {
			line += " by " + n.Author
		}
		if n.Created != nil {
			line += " · created " + render.Time(*n.Created) + " (" + n.CreatedSource + ")"
		}
		if len(n.Tags) > 0 {
			line += " · tags: " + strings.Join(n.Tags, ", ")
		}
		b.Line("%s", line)
	}
	if out.NextCursor != "" {
		b.Line("More: pass {cursor} %q.", out.NextCursor)
	}
	return b.String()
}

// scanProp is a search's account of a scan while the index builds.
var scanProp = tool.Opt("scan", tool.Object("While the index builds: notes read, searched (total counts their matches), in all; "+
	"complete: every note that may match searched (if not, no results proves nothing).",
	tool.Req("read", tool.Integer("", 0, 1e9)),
	tool.Req("searched", tool.Integer("", 0, 1e9)),
	tool.Req("notes", tool.Integer("", 0, 1e9)),
	tool.Req("complete", tool.Boolean(""))))
