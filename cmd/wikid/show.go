package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

type showCommand struct{ env }

func (c *showCommand) Usage() string {
	return `Usage: wikid show [flags] PATH@VERSION

Prints a note as it was at a version: a full or short commit sha, HEAD~N,
or a branch. 'wikid history PATH' lists the versions.

Examples:
  wikid show projects/plan@HEAD~3
  wikid show projects/plan@1a2b3c4

Flags:
`
}

func (c *showCommand) Run(ctx context.Context, args []string) error {
	fs := newFlagSet("show", c.Usage(), c.stderr)
	repo := repoFlag(fs, c.env)
	section := fs.String("section", "", "only this section: heading text, or Parent/Child")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if err := parseArgs(fs, args, 1, 1); err != nil {
		return err
	}
	i := strings.LastIndex(fs.Arg(0), "@")
	if i <= 0 || i == len(fs.Arg(0))-1 {
		fmt.Fprintf(c.stderr, "wikid show: want PATH@VERSION, got %q\n\n", fs.Arg(0))
		fs.Usage()
		return exitError(2)
	}
	path, version := fs.Arg(0)[:i], fs.Arg(0)[i+1:]
	w, release, err := openWiki(ctx, c.env, *repo, nil)
	if err != nil {
		return err
	}
	defer release()
	res, err := w.Read(ctx, wiki.ReadRequest{Path: path, Version: version, Section: *section, MaxChars: 1 << 30})
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(c.stdout, "read_note", res)
	}
	_, err = fmt.Fprint(c.stdout, res.Content)
	return err
}
