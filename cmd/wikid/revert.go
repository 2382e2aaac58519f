package main

import (
	"context"

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
	fs := newFlagSet("revert", c.Usage(), c.stderr)
	repo := repoFlag(fs, c.env)
	message := fs.String("m", "", "why: becomes the commit body")
	dryRun := fs.Bool("dry-run", false, "show the diff and risk, commit nothing")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	author := authorFlag(fs)
	if err := parseArgs(fs, args, 1, 1); err != nil {
		return err
	}
	w, release, who, err := openWikiAs(ctx, c.env, *repo, *author)
	if err != nil {
		return err
	}
	defer release()
	res, err := w.Revert(ctx, wiki.RevertRequest{Commit: fs.Arg(0),
		Mutation: wiki.Mutation{Message: *message, DryRun: *dryRun, Caller: who}})
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(c.stdout, "revert_change", res)
	}
	printResult(c.stdout, res)
	return nil
}
