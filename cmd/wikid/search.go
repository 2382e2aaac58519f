package main

import (
	"context"
	"fmt"
	"strings"

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
  a b (both)  a OR b  -x  NOT x  ( ... )

Examples:
  wikid search 'tag:project -tag:archived "release plan"'
  wikid search --sort modified --limit 5 'folder:journal'

Flags:
`
}

func (c *searchCommand) Run(ctx context.Context, args []string) error {
	fs := newFlagSet("search", c.Usage(), c.stderr)
	repo := repoFlag(fs, c.env)
	limit := fs.Int("limit", 10, "how many results (at most 100)")
	sort := fs.String("sort", "relevance", "relevance, modified, created or title")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if err := parseArgs(fs, args, 1, -1); err != nil {
		return err
	}
	w, release, err := openWiki(ctx, c.env, *repo, nil)
	if err != nil {
		return err
	}
	defer release()
	if err := w.Reindex(ctx, false, progressPrinter(c.env, "indexing")); err != nil {
		return err
	}
	res, err := w.Search(ctx, wiki.SearchParams{Query: strings.Join(fs.Args(), " "), Limit: *limit, Sort: *sort, Snippets: true})
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(c.stdout, "search_notes", res)
	}
	fmt.Fprintf(c.stdout, "%d results\n", res.Total)
	for _, h := range res.Results {
		fmt.Fprintf(c.stdout, "\n%s — %s", h.Path, h.Title)
		if len(h.Tags) > 0 {
			fmt.Fprintf(c.stdout, "  #%s", strings.Join(h.Tags, " #"))
		}
		fmt.Fprintln(c.stdout)
		for _, s := range h.Snippets {
			fmt.Fprintf(c.stdout, "  %d: %s\n", s.Line, s.Text)
		}
	}
	return nil
}
