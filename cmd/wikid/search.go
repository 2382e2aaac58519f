package main

import (
	"context"
	"strings"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/wiki"
)

type searchCommand struct{ env }

func (c *searchCommand) Usage() string {
	return `Usage: wikid search [flags] QUERY

Ranked full-text search over the notes at HEAD.

Query language:
  word  word*  "a phrase"  title:word  tag:x  folder:a/b  path:a/b*
  status:done (any frontmatter key)  links:x  linkedfrom:x
  modified:>=2024-01-01  created:<2024-06  modified:2024-01..2024-03
  a b (both)  a OR b  a AND b  -x  NOT x  ( ... )

Plain words with no AND, OR or parentheses are read as a question: the
notes with every word come first; when they are fewer than --limit, the
notes with most of the words follow, each saying how many it holds. Stop
words ("how", "the", "a") count only among notes with every word, and a
quoted phrase, a field, a prefix and -x stay as strict as ever. AND keeps
every word required.

Examples:
  wikid search 'tag:project -tag:archived "release plan"'
  wikid search --sort modified --limit 5 'folder:journal'
  wikid search --mode semantic 'that note about onboarding the new designer'

Flags:
`
}

func (c *searchCommand) Run(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "search", c.Usage())
	limit := cl.Int("limit", 10, "how many results (at most 100)")
	cursor := cl.String("cursor", "", "the next page: the cursor the last page ended with")
	sort := cl.String("sort", "relevance", "relevance, modified, created or title")
	mode := cl.String("mode", "text", "text (the query language), semantic (by meaning, the query in plain words) or hybrid;\n"+
		"semantic and hybrid need a semantic: block in .wikid.yaml")
	cl.jsonFlag()
	w, release, err := cl.parseAndOpen(ctx, args, 1, -1)
	if err != nil {
		return err
	}
	defer release()
	if err := w.Reindex(ctx, false, progressPrinter(c.env, "indexing")); err != nil {
		return err
	}
	query := strings.Join(cl.Args(), " ")
	res, err := w.Search(ctx, wiki.SearchParams{Query: query, Limit: *limit, Sort: *sort, Snippets: 3, Mode: *mode, Cursor: *cursor})
	if err != nil {
		return err
	}
	return cl.printText("search_notes", res, render.Search(query, res))
}
