package main

import (
	"context"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/wiki"
)

type rmCommand struct{ env }

func (c *rmCommand) Usage() string {
	return `Usage: wikid rm [flags] PATH

Deletes a note as one commit. The note stays in history: 'git log' shows
the commit and a restore brings it back.

Flags:
`
}

func (c *rmCommand) Run(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "rm", c.Usage())
	mf := addMutationFlags(cl)
	w, release, err := cl.parseAndOpen(ctx, args, 1, 1)
	if err != nil {
		return err
	}
	defer release()
	res, err := w.Delete(ctx, wiki.DeleteRequest{Path: cl.pathArg(0), Confirm: true, Mutation: mf.mutation(cl.who)})
	if err != nil {
		return err
	}
	return cl.printText("delete_note", res, render.Deleted(cl.Arg(0), res))
}
