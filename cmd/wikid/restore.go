package main

import (
	"context"

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
	fs := newFlagSet("restore", c.Usage(), c.stderr)
	repo := repoFlag(fs, c.env)
	mf := addMutationFlags(fs)
	if err := parseArgs(fs, args, 1, 2); err != nil {
		return err
	}
	w, release, err := mf.open(ctx, c.env, *repo)
	if err != nil {
		return err
	}
	defer release()
	res, err := w.Restore(ctx, wiki.RestoreRequest{Path: fs.Arg(0), Version: fs.Arg(1), Mutation: mf.mutation()})
	if err != nil {
		return err
	}
	if mf.json {
		return printJSON(c.stdout, "restore_note", res)
	}
	printResult(c.stdout, res)
	return nil
}
