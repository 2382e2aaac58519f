package main

import (
	"context"
	"fmt"
	"runtime"
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
	cl := newCommandLine(c.env, "show", c.Usage())
	section := cl.String("section", "", "only this section: heading text, or Parent/Child")
	cl.jsonFlag()
	if err := cl.parse(args, 1, 1); err != nil {
		return err
	}
	i := strings.LastIndex(cl.Arg(0), "@")
	if i <= 0 || i == len(cl.Arg(0))-1 {
		fmt.Fprintf(c.stderr, "wikid show: want PATH@VERSION, got %q\n\n", cl.Arg(0))
		cl.Usage()
		return exitError(2)
	}
	path, version := notePath(runtime.GOOS, cl.Arg(0)[:i]), cl.Arg(0)[i+1:]
	w, release, err := cl.open(ctx)
	if err != nil {
		return err
	}
	defer release()
	res, err := w.Read(ctx, wiki.ReadRequest{Path: path, Version: version, Section: *section, MaxChars: 1 << 30})
	if err != nil {
		return err
	}
	return cl.print("read_note", res, func() error {
		_, err := fmt.Fprint(c.stdout, res.Content)
		return err
	})
}
