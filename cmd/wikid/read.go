package main

import (
	"context"
	"fmt"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/wiki"
)

type readCommand struct{ env }

func (c *readCommand) Usage() string {
	return `Usage: wikid read [flags] PATH

Prints a note (or one section of it) from the wiki at HEAD or at an older
version. PATH has no extension: projects/alpha/plan is projects/alpha/plan.md.

Flags:
`
}

func (c *readCommand) Run(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "read", c.Usage())
	section := cl.String("section", "", "only this section: heading text, or Parent/Child")
	ver := cl.String("version", "", "read at this revision (sha, short sha, HEAD~N)")
	meta := cl.Bool("metadata", false, "print only the metadata")
	cl.jsonFlag()
	w, release, err := cl.parseAndOpen(ctx, args, 1, 1)
	if err != nil {
		return err
	}
	defer release()
	res, err := w.Read(ctx, wiki.ReadRequest{Path: cl.pathArg(0), Section: *section, Version: *ver,
		MetadataOnly: *meta, MaxChars: 1 << 30})
	if err != nil {
		return err
	}
	if *meta {
		return cl.printText("read_note", res, render.Read(res, true))
	}
	return cl.print("read_note", res, func() error {
		_, err := fmt.Fprint(c.stdout, res.Content)
		return err
	})
}
