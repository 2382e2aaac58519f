package main

import (
	"context"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/wiki"
)

type revertCommand struct{ env }

func (c *revertCommand) Usage() string {
	return `Usage: wikid revert [flags] COMMIT

Undoes what one commit did to notes, as a new commit: changed notes get the
inverse change, merged line by line into later edits; created notes are
deleted, deleted ones come back, renamed ones move back. Where later edits
overlap, nothing is changed and the overlapping lines are printed.

Flags:
`
}

func (c *revertCommand) Run(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "revert", c.Usage())
	message := cl.String("m", "", "why: becomes the commit body")
	dryRun := cl.Bool("dry-run", false, "show the diff and risk, commit nothing")
	cl.jsonFlag()
	cl.authorFlag()
	w, release, err := cl.parseAndOpen(ctx, args, 1, 1)
	if err != nil {
		return err
	}
	defer release()
	res, err := w.Revert(ctx, wiki.RevertRequest{Commit: cl.Arg(0),
		Mutation: wiki.Mutation{Message: *message, DryRun: *dryRun, Caller: cl.who}})
	if err != nil {
		return err
	}
	return cl.printText("revert_change", res, render.Reverted(cl.Arg(0), res))
}
