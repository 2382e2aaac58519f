package main

import (
	"context"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/wiki"
)

type mvCommand struct{ env }

func (c *mvCommand) Usage() string {
	return `Usage: wikid mv [flags] OLD NEW

Moves a note, or every note under a folder (OLD ending in '/', or naming
no note), as one commit in which git sees the renames. Every link that
would no longer reach a moved note is rewritten in the same commit, in its
own style: [[name|label]] keeps its label, [[name#Heading]] its heading,
a markdown link stays relative. With --no-update-links only the files move,
and the notes that still name the old paths are listed.

Examples:
  wikid mv projects/alpha/ideas archive/alpha-ideas
  wikid mv --dry-run projects/alpha/ archive/alpha/

Flags:
`
}

func (c *mvCommand) Run(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "mv", c.Usage())
	mf := addMutationFlags(cl)
	leave := cl.Bool("no-update-links", false, "move the files only; list the notes whose links still name the old paths")
	w, release, err := cl.parseAndOpen(ctx, args, 2, 2)
	if err != nil {
		return err
	}
	defer release()
	res, err := w.Move(ctx, wiki.MoveRequest{Path: cl.pathArg(0), NewPath: cl.pathArg(1), LeaveLinks: *leave, Mutation: mf.mutation(cl.who)})
	if err != nil {
		return err
	}
	return cl.printText("move_note", res, render.Moved(cl.Arg(0), cl.Arg(1), res, !*leave))
}
