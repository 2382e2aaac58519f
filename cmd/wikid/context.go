package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

type contextCommand struct{ env }

func (c *contextCommand) Usage() string {
	return `Usage: wikid context [flags] QUESTION

The few sections of the notes that best answer a question, within a token
budget (about four bytes a token), each cited by path, lines and version:
what an assistant gets from gather_context. The question is plain words;
the search it ran is printed, to refine with 'wikid search'.

Examples:
  wikid context 'why did we choose object storage?'
  wikid context --budget 500 --folder projects 'who owns the dashboards'

Flags:
`
}

func (c *contextCommand) Run(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "context", c.Usage())
	budget := cl.Int("budget", wiki.DefaultContextBudget, fmt.Sprintf("tokens, %d to %d", wiki.MinContextBudget, wiki.MaxContextBudget))
	folder := cl.String("folder", "", "only notes under this folder")
	cl.jsonFlag()
	w, release, err := cl.parseAndOpen(ctx, args, 1, -1)
	if err != nil {
		return err
	}
	defer release()
	if err := w.Reindex(ctx, false, progressPrinter(c.env, "indexing")); err != nil {
		return err
	}
	res, err := w.GatherContext(ctx, wiki.ContextRequest{Question: strings.Join(cl.Args(), " "), Budget: *budget, Folder: *folder})
	if err != nil {
		return err
	}
	return cl.print("gather_context", res, func() error {
		c.print(res)
		return nil
	})
}

// print prints the sections for people: where each comes from, then its
// lines, numbered as in the file.
func (c *contextCommand) print(res *wiki.ContextResult) {
	fmt.Fprintf(c.stdout, "%d sections, about %d of %d tokens (search: %s)\n", len(res.Sections), res.Tokens, res.Budget, res.Query)
	for _, s := range res.Sections {
		fmt.Fprintf(c.stdout, "\n%s:%d-%d", s.Path, s.StartLine, s.EndLine)
		if s.Heading != "" {
			fmt.Fprintf(c.stdout, " — %s", s.Heading)
		}
		fmt.Fprintf(c.stdout, "  (version %s)\n", s.Version)
		for i, l := range strings.Split(s.Text, "\n") {
			fmt.Fprintf(c.stdout, "%6d  %s\n", s.StartLine+i, l)
		}
	}
	if len(res.More) > 0 {
		paths := make([]string, len(res.More))
		for i, m := range res.More {
			paths[i] = m.Path
		}
		fmt.Fprintf(c.stdout, "\nalso matched: %s\n", strings.Join(paths, ", "))
	}
}
