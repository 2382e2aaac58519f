package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/wikid/wikid/internal/render"
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
	return cl.printText("gather_context", res, render.Context(res))
}
