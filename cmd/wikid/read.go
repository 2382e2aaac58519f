package main

import (
	"context"
	"fmt"
	"strings"

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
	fs := newFlagSet("read", c.Usage(), c.stderr)
	repo := repoFlag(fs, c.env)
	section := fs.String("section", "", "only this section: heading text, or Parent/Child")
	ver := fs.String("version", "", "read at this revision (sha, short sha, HEAD~N)")
	meta := fs.Bool("metadata", false, "print only the metadata")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if err := parseArgs(fs, args, 1, 1); err != nil {
		return err
	}
	w, release, err := openWiki(ctx, c.env, *repo, nil)
	if err != nil {
		return err
	}
	defer release()
	res, err := w.Read(ctx, wiki.ReadRequest{Path: fs.Arg(0), Section: *section, Version: *ver,
		MetadataOnly: *meta, MaxChars: 1 << 30})
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(c.stdout, "read_note", res)
	}
	if *meta {
		fmt.Fprintf(c.stdout, "path: %s\nfile: %s\ntitle: %s\ntags: %s\nversion: %s\n",
			res.Path, res.File, res.Title, strings.Join(res.Tags, ", "), res.Version)
		for _, h := range res.Headings {
			fmt.Fprintf(c.stdout, "%s %s (line %d)\n", strings.Repeat("#", h.Level), h.Text, h.Line)
		}
		return nil
	}
	_, err = fmt.Fprint(c.stdout, res.Content)
	return err
}
