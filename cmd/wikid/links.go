package main

import (
	"context"
	"fmt"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/wiki"
)

type linksCommand struct{ env }

func (c *linksCommand) Usage() string {
	return `Usage: wikid links [flags] PATH

Shows the notes that link to a note (with the line and its text), the
note's own links and whether they resolve, and with --depth the notes
further away. For a path without a note, shows who still links to it.

Flags:
`
}

func (c *linksCommand) Run(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "links", c.Usage())
	dir := cl.String("direction", "both", "in (links to the note), out (its links) or both")
	depth := cl.Int("depth", 1, fmt.Sprintf("list neighbors up to this many links away (at most %d)", wiki.MaxLinksDepth))
	limit := cl.Int("limit", wiki.DefaultLinksLimit, fmt.Sprintf("at most this many entries per list (at most %d)", wiki.MaxLinksLimit))
	cl.jsonFlag()
	w, release, err := cl.parseAndOpen(ctx, args, 1, 1)
	if err != nil {
		return err
	}
	defer release()
	res, err := w.Links(ctx, wiki.LinksRequest{Path: cl.pathArg(0), Direction: wiki.Direction(*dir), Depth: *depth, Limit: *limit})
	if err != nil {
		return err
	}
	return cl.printText("get_links", res, render.Links(res))
}
