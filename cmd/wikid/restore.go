package main

import (
	"context"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/wiki"
)

type restoreCommand struct{ env }

func (c *restoreCommand) Usage() string {
	return `Usage: wikid restore [flags] PATH [VERSION]

Brings back a note's content at VERSION (a commit: full or short sha,
HEAD~N) as a new commit; nothing of the history is rewritten. Without
VERSION it restores a deleted note's last version.

Examples:
  wikid restore projects/plan HEAD~2
  wikid restore projects/old-plan

Flags:
`
}

func (c *restoreCommand) Run(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "restore", c.Usage())
	mf := addMutationFlags(cl)
	w, release, err := cl.parseAndOpen(ctx, args, 1, 2)
	if err != nil {
		return err
	}
	defer release()
	res, err := w.Restore(ctx, wiki.RestoreRequest{Path: cl.pathArg(0), Version: cl.Arg(1), Mutation: mf.mutation(cl.who)})
	if err != nil {
		return err
	}
	return cl.printText("restore_note", res, render.Restored(cl.Arg(0), cl.Arg(1), res))
}
