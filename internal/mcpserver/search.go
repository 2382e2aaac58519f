package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

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
	folderProp = opt("folder", str(""))
	cursorProp = opt("cursor", str(""))
)

// searchInput is search_notes' input schema; with semantic, with mode.
func searchInput(semantic bool) *schema {
	props := []prop{opt("query", str(""))}
	if semantic {
		props = append(props, opt("mode", enum("text: the query language; semantic: by meaning, query in plain words; hybrid: both, fused.",
			wiki.SearchText, wiki.SearchSemantic, wiki.SearchHybrid).def(wiki.SearchText)))
	}
	return object("", append(props,
		opt("tags", strList("All of these.")),
		folderProp,
		opt("backlinks_to", str("")),
		opt("modified_since", str("")),
		opt("sort", enum("", "relevance", "modified", "created", "title").def("relevance")),
		opt("limit", integer("", 1, 100).def(10)),
		cursorProp,
	)...)
}

func searchNotesTool() *tool {
	in := searchInput(false)
	return &tool{
		name: "search_notes", group: GroupSearch, title: "Search notes", idempotent: true,
		description: "Ranked search with snippets. Use grep_notes for exact text, list_notes to browse. " +
			queryLanguage,
		input:        in,
		output:       searchResultSchema(false),
		run:          bind(in, runSearch),
		withSemantic: searchNotesSemanticTool,
	}
}

func runSearch(ctx context.Context, s *Env, a *searchArgs) (any, string, error) {
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
	return searchOutputOf(res, a.Sort), searchText(a.Query, res), nil
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
			hit.Snippets[j].Text, cut = clip(hit.Snippets[j].Text, maxItemChars)
			out.Truncated = out.Truncated || cut
		}
	}
	return out
}

func searchText(query string, res *wiki.SearchResult) string {
	var b textBuilder
	if len(res.Results) == 0 {
		if query == "" {
			b.line("No notes found.")
		} else {
			b.line("No notes found matching %q.", query)
		}
		return b.String()
	}
	if res.QuestionWords > 0 {
		b.line("Read as a question of %s: notes with all of them first, then notes with most of them.", plural(res.QuestionWords, "word"))
	}
	b.line("Found %s (showing %d):", plural(res.Total, "note"), len(res.Results))
	for _, h := range res.Results {
		b.line("")
		head := fmt.Sprintf("- %s (%s)", h.Title, h.Path)
		if res.QuestionWords > 0 && h.Matched < res.QuestionWords {
			head += fmt.Sprintf(" · %d of %d words", h.Matched, res.QuestionWords)
		}
		if len(h.Tags) > 0 {
			head += " · tags: " + strings.Join(h.Tags, ", ")
		}
		var modified *time.Time
		if !h.Modified.IsZero() {
			modified = &h.Modified
		}
		if d := datesText(h.Created, h.CreatedSource, modified, h.ModifiedSource); d != "" {
			head += " · " + d
		}
		b.line("%s", head)
		for _, sn := range h.Snippets {
			b.line("  %d: %s", sn.Line, oneLine(sn.Text))
		}
	}
	b.line("")
	if res.NextCursor != "" {
		b.line("More results: call again with cursor %q.", res.NextCursor)
	} else {
		b.line("No more results.")
	}
	if res.Mode != "" && res.Mode != wiki.SearchText || res.Fallback != "" {
		b.line("Ranked by: %s.", res.Mode)
	}
	semanticNotes(&b, res)
	return b.String()
}

// oneLine folds a snippet onto one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// searchResultSchema is the schema of a page of hits; with semantic, of
// one that may come from a search by meaning.
func searchResultSchema(semantic bool) *schema {
	s := object("One page of results.",
		req("results", arrayOf("The notes found, best first (or in the sort order).", object("",
			req("path", str("Note path.")),
			req("title", str("Title.")),
			req("tags", strList("Tags.")),
			opt("modified", dateTime("Last changed: the frontmatter's date, else the last commit's time.")),
			opt("created", dateTime("Created, when sorting by it: the frontmatter's date, else the first commit's time.")),
			req("score", &schema{Type: "number", Description: "Relevance score.", Digits: 3}),
			opt("snippets", arrayOf("Pieces of the note around the matches; matched terms are marked «like this».", object("",
				req("line", integer("Line number in the file.", 1, 1e9)),
				req("text", str("The text, at most 500 characters."))))),
			opt("matched", integer("Of question_words, how many the note holds.", 1, 1e9)),
		))),
		req("total", integer("How many notes match in all.", 0, 1e9)),
		opt("question_words", integer("Plain words read as a question: notes with all, then most.", 1, 1e9)),
		opt("next_cursor", str("Pass as cursor to get the next page; absent on the last page.")),
		opt("truncated", boolean("Set when a snippet was cut to 500 characters.")),
	)
	if semantic {
		s.Props = append(s.Props, semanticResultProps()...)
	}
	return s
}

// parseSince reads a date argument that starts a span: the first instant
// of the date, read by the wiki's one rule (see wiki.ParseDate).
func parseSince(s *Env, name, v string) (time.Time, error) {
	first, _, err := parseDate(s, name, v)
	return first, err
}

// parseUntil reads a date argument that ends a span: the last instant of
// the date (all of 2024-06-01 for "2024-06-01").
func parseUntil(s *Env, name, v string) (time.Time, error) {
	_, last, err := parseDate(s, name, v)
	return last, err
}

func parseDate(s *Env, name, v string) (first, last time.Time, err error) {
	first, last, err = s.Wiki.ParseDate(v)
	if err != nil {
		var e *wiki.Error
		if errors.As(err, &e) {
			err = argError(name, "is not a date: %s", e.Message).
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

// recentOutput is a page of recently changed notes.
type recentOutput struct {
	Results    []recentNote `json:"results"`
	Total      int          `json:"total"`
	NextCursor string       `json:"next_cursor,omitempty"`
}

type recentNote struct {
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

func recentChangesTool() *tool {
	in := object("",
		opt("limit", integer("", 1, 100).def(10)),
		opt("since", str("")),
		folderProp,
		opt("author", str("")),
		cursorProp,
	)
	return &tool{
		name: "recent_changes", group: GroupSearch, title: "Recently changed notes", idempotent: true,
		description: "Notes by last commit, newest first, with author. Use it to see what is new; activity_log for commits.",
		input:       in,
		output: object("One page of notes, newest first.",
			req("results", arrayOf("", object("",
				req("path", str("Note path.")),
				req("title", str("Title.")),
				req("tags", strList("Tags.")),
				opt("created", &schema{Type: "string", Format: "date-time", Description: "The frontmatter's created date, else the note's first commit's time."}),
				opt("created_source", enum("Where created comes from.", "frontmatter", "git")),
				req("modified", &schema{Type: "string", Format: "date-time", Description: "The time of the last commit that changed the note."}),
				opt("modified_source", enum("Where modified comes from: git, but for a wiki without a history index.", "frontmatter", "git")),
				opt("commit", str("The last commit that changed the note.")),
				opt("author", str("That commit's author, Name <email>.")),
			))),
			req("total", integer("How many notes match in all.", 0, 1e9)),
			opt("next_cursor", str("Pass as cursor to get the next page; absent on the last page.")),
		),
		run: bind(in, runRecent),
	}
}

func runRecent(ctx context.Context, s *Env, a *recentArgs) (any, string, error) {
	since, err := parseSince(s, "since", a.Since)
	if err != nil {
		return nil, "", err
	}
	res, err := s.Wiki.RecentChanges(ctx, wiki.RecentRequest{Since: since, Folder: a.Folder, Author: a.Author, Limit: a.Limit, Cursor: a.Cursor})
	if err != nil {
		return nil, "", err
	}
	out := &recentOutput{Results: make([]recentNote, len(res.Results)), Total: res.Total, NextCursor: res.NextCursor}
	for i, n := range res.Results {
		out.Results[i] = recentNote{Path: n.Path, Title: n.Title, Tags: n.Tags, Created: n.Created, CreatedSource: n.CreatedSource,
			Modified: n.Modified, ModifiedSource: n.ModifiedSource, Commit: n.Commit, Author: n.Author}
	}
	return out, recentText(out, a.Since), nil
}

func newRecentNote(h wiki.SearchHit) recentNote {
	if h.Tags == nil {
		h.Tags = []string{}
	}
	return recentNote{Path: h.Path, Title: h.Title, Tags: h.Tags, Created: h.Created, CreatedSource: h.CreatedSource,
		Modified: h.Modified, ModifiedSource: h.ModifiedSource}
}

func recentText(out *recentOutput, since string) string {
	var b textBuilder
	switch {
	case len(out.Results) == 0 && since != "":
		b.line("No notes changed since %s.", since)
		return b.String()
	case len(out.Results) == 0:
		b.line("No notes yet.")
		return b.String()
	case since != "":
		b.line("Notes changed since %s (%d of %d):", since, len(out.Results), out.Total)
	default:
		b.line("Recently changed notes (%d of %d):", len(out.Results), out.Total)
	}
	for _, n := range out.Results {
		line := fmt.Sprintf("- %s (%s)", n.Title, n.Path)
		if !n.Modified.IsZero() {
			line += " · modified " + fmtTime(n.Modified)
		}
		if n.Commit != "" {
			line += " in " + shortID(n.Commit)
		}
		if n.Author != "" {
			line += " by " + n.Author
		}
		if n.Created != nil {
			line += " · created " + fmtTime(*n.Created) + " (" + n.CreatedSource + ")"
		}
		if len(n.Tags) > 0 {
			line += " · tags: " + strings.Join(n.Tags, ", ")
		}
		b.line("%s", line)
	}
	if out.NextCursor != "" {
		b.line("More: call again with cursor %q.", out.NextCursor)
	}
	return b.String()
}
