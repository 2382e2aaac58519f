package main

import (
	"context"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/wiki"
)

type historyCommand struct{ env }

func (c *historyCommand) Usage() string {
	return `Usage: wikid history [flags] PATH

Lists the commits that changed a note, newest first, as 'git log --follow'
does (or 'git log -- file' with --no-follow): short sha, date, author,
what happened to the note and the lines added and deleted ("? ?" when a
version is missing from this repository, as in a partial clone). A deleted
note has a history too.

Flags:
`
}

func (c *historyCommand) Run(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "history", c.Usage())
	noFollow := cl.Bool("no-follow", false, "stop at a rename instead of following the note to its old path")
	limit := cl.Int("limit", wiki.MaxHistoryLimit, "how many commits (at most 100)")
	cursor := cl.String("cursor", "", "continue after the page that printed this cursor")
	cl.jsonFlag()
	w, release, err := cl.parseAndOpen(ctx, args, 1, 1)
	if err != nil {
		return err
	}
	defer release()
	res, err := w.History(ctx, wiki.HistoryRequest{Path: cl.pathArg(0), NoFollow: *noFollow, Limit: *limit, Cursor: *cursor})
	if err != nil {
		return err
	}
	return cl.printText("note_history", res, render.History(res))
}
