package main

import (
	"context"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/wiki"
)

type writeCommand struct{ env }

func (c *writeCommand) Usage() string {
	return `Usage: wikid write [flags] PATH < content.md

Creates the note PATH with the content read from standard input, as one
commit. An existing note is refused unless --overwrite is given.

Flags:
`
}

func (c *writeCommand) Run(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "write", c.Usage())
	overwrite := cl.Bool("overwrite", false, "replace the note if it exists")
	mf := addMutationFlags(cl)
	if err := cl.parse(args, 1, 1); err != nil {
		return err
	}
	content, err := readInput(c.env, "", false)
	if err != nil {
		return err
	}
	w, release, err := cl.open(ctx)
	if err != nil {
		return err
	}
	defer release()
	res, err := w.Write(ctx, wiki.WriteRequest{Path: cl.pathArg(0), Content: content, Overwrite: *overwrite, Mutation: mf.mutation(cl.who)})
	if err != nil {
		return err
	}
	return cl.printText("write_note", res, render.Written(cl.Arg(0), res))
}
