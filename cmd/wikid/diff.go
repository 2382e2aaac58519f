package main

import (
	"context"
	"fmt"

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
	fs := newFlagSet("diff", c.Usage(), c.stderr)
	repo := repoFlag(fs, c.env)
	from := fs.String("from", "", "the older version")
	to := fs.String("to", "", "the newer version (default HEAD)")
	unified := fs.Int("U", wiki.DefaultDiffContext, "lines of context around each change")
	stat := fs.Bool("stat", false, "print the changed files and their line counts instead of the diff")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if err := parseArgs(fs, args, 0, 1); err != nil {
		return err
	}
	w, release, err := openWiki(ctx, c.env, *repo, nil)
	if err != nil {
		return err
	}
	defer release()
	lines := *unified
	if lines == 0 {
		lines = -1 // none; 0 asks for the default
	}
	res, err := w.Diff(ctx, wiki.DiffRequest{Path: fs.Arg(0), From: *from, To: *to, Context: lines})
	if err != nil {
		return err
	}
	switch {
	case *asJSON:
		return printJSON(c.stdout, "diff_versions", res)
	case *stat:
		for _, f := range res.Files {
			name := f.File
			if f.OldFile != "" {
				name = f.OldFile + " => " + f.File
			}
			fmt.Fprintf(c.stdout, "%-9s %s\n", counts(f.Additions, f.Deletions, f.LinesUnknown), name)
		}
		fmt.Fprintf(c.stdout, "%d files, +%d -%d\n", len(res.Files), res.Additions, res.Deletions)
		return nil
	}
	if res.LinesUnknown {
		for _, f := range res.Files {
			if f.LinesUnknown {
				fmt.Fprintf(c.stderr, "wikid: %s left out: %s\n", f.File, missingVersion)
			}
		}
	}
	_, err = fmt.Fprint(c.stdout, res.Diff)
	return err
}
