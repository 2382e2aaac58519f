package main

import (
	"context"

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
	fs := newFlagSet("write", c.Usage(), c.stderr)
	repo := repoFlag(fs, c.env)
	overwrite := fs.Bool("overwrite", false, "replace the note if it exists")
	mf := addMutationFlags(fs)
	if err := parseArgs(fs, args, 1, 1); err != nil {
		return err
	}
	content, err := readInput(c.env, "", false)
	if err != nil {
		return err
	}
	w, release, err := mf.open(ctx, c.env, *repo)
	if err != nil {
		return err
	}
	defer release()
	res, err := w.Write(ctx, wiki.WriteRequest{Path: fs.Arg(0), Content: content, Overwrite: *overwrite, Mutation: mf.mutation()})
	if err != nil {
		return err
	}
	if mf.json {
		return printJSON(c.stdout, "write_note", res)
	}
	printResult(c.stdout, res)
	return nil
}
