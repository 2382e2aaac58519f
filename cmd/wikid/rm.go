package main

import (
	"context"

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
	fs := newFlagSet("rm", c.Usage(), c.stderr)
	repo := repoFlag(fs, c.env)
	mf := addMutationFlags(fs)
	if err := parseArgs(fs, args, 1, 1); err != nil {
		return err
	}
	w, release, err := mf.open(ctx, c.env, *repo)
	if err != nil {
		return err
	}
	defer release()
	res, err := w.Delete(ctx, wiki.DeleteRequest{Path: fs.Arg(0), Confirm: true, Mutation: mf.mutation()})
	if err != nil {
		return err
	}
	if mf.json {
		return printJSON(c.stdout, "delete_note", res)
	}
	printResult(c.stdout, res)
	return nil
}
