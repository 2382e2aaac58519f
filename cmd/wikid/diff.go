package main

import (
	"context"
	"fmt"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/wiki"
)

type diffCommand struct{ env }

func (c *diffCommand) Usage() string {
	return `Usage: wikid diff [flags] [PATH]

Prints a unified diff, as git does, between two versions of a note (followed
across renames) or, without PATH, of the whole wiki. --to defaults to HEAD;
without --from it shows what the --to commit changed, and for a note with
neither flag, the note's last change. The output applies with 'git apply'.

Examples:
  wikid diff projects/plan
  wikid diff --from HEAD~5 projects/plan
  wikid diff --to 1a2b3c4

Flags:
`
}

func (c *diffCommand) Run(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "diff", c.Usage())
	from := cl.String("from", "", "the older version")
	to := cl.String("to", "", "the newer version (default HEAD)")
	unified := cl.Int("U", wiki.DefaultDiffContext, "lines of context around each change")
	stat := cl.Bool("stat", false, "print the changed files and their line counts instead of the diff")
	cl.jsonFlag()
	w, release, err := cl.parseAndOpen(ctx, args, 0, 1)
	if err != nil {
		return err
	}
	defer release()
	lines := *unified
	if lines == 0 {
		lines = -1 // none; 0 asks for the default
	}
	res, err := w.Diff(ctx, wiki.DiffRequest{Path: cl.pathArg(0), From: *from, To: *to, Context: lines})
	if err != nil {
		return err
	}
	return cl.print("diff_versions", res, func() error { return c.print(res, *stat) })
}

// print prints a diff for people: the unified diff, which git apply
// takes, or with stat what it changed (see render.DiffSummary).
func (c *diffCommand) print(res *wiki.DiffResult, stat bool) error {
	if stat {
		_, err := fmt.Fprintln(c.stdout, cliWords.Say(render.DiffSummary(res)))
		return err
	}
	if res.LinesUnknown {
		for _, f := range res.Files {
			if f.LinesUnknown {
				fmt.Fprintf(c.stderr, "wikid: %s left out: %s\n", f.File, render.MissingVersion)
			}
		}
	}
	_, err := fmt.Fprint(c.stdout, res.Diff)
	return err
}
