package main

import (
	"context"
	"fmt"
	"io"
	"strings"

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
	res, err := w.Links(ctx, wiki.LinksRequest{Path: cl.Arg(0), Direction: wiki.Direction(*dir), Depth: *depth, Limit: *limit})
	if err != nil {
		return err
	}
	return cl.print("get_links", res, func() error {
		printLinks(c.stdout, res, wiki.Direction(*dir))
		return nil
	})
}

// printLinks renders a links result for people.
func printLinks(out io.Writer, res *wiki.LinksResult, dir wiki.Direction) {
	if !res.Exists {
		fmt.Fprintf(out, "No note %s.\n", res.Path)
		if res.IncomingTotal == 0 {
			fmt.Fprintln(out, "No notes link to it.")
			return
		}
		verb := "link"
		if res.IncomingTotal == 1 {
			verb = "links"
		}
		fmt.Fprintf(out, "%s still %s to it:\n", count(res.IncomingTotal, "note"), verb)
	} else {
		fmt.Fprintf(out, "%s — %s\n", res.Path, res.Title)
		if dir != wiki.DirOut {
			fmt.Fprintf(out, "\nLinked from %s:\n", count(res.IncomingTotal, "note"))
		}
	}
	for _, b := range res.Incoming {
		for _, l := range b.Links {
			fmt.Fprintf(out, "  %s:%d  %s\n", b.Path, l.Line, l.Context)
		}
	}
	more(out, len(res.Incoming), res.IncomingTotal)
	if !res.Exists || dir == wiki.DirIn {
		printNeighbors(out, res.Neighbors)
		return
	}
	fmt.Fprintf(out, "\nLinks to %s:\n", count(res.OutgoingTotal, "target"))
	for _, l := range res.Outgoing {
		target := l.Target
		if l.Heading != "" {
			target += "#" + l.Heading
		}
		switch {
		case l.Broken != "":
			fmt.Fprintf(out, "  line %d  %s  broken: %s\n", l.Line, target, l.Broken)
		case len(l.Ambiguous) > 0:
			fmt.Fprintf(out, "  line %d  %s -> %s (the name also names %s)\n", l.Line, target, l.Path, strings.Join(l.Ambiguous, ", "))
		default:
			fmt.Fprintf(out, "  line %d  %s -> %s\n", l.Line, target, l.Path)
		}
	}
	more(out, len(res.Outgoing), res.OutgoingTotal)
	printNeighbors(out, res.Neighbors)
}

// printNeighbors lists the notes two and more links away.
func printNeighbors(out io.Writer, levels []wiki.NeighborLevel) {
	for _, lv := range levels {
		if lv.Depth < 2 {
			continue
		}
		paths := make([]string, len(lv.Notes))
		for i, n := range lv.Notes {
			paths[i] = n.Path
		}
		fmt.Fprintf(out, "\n%d links away (%s): %s\n", lv.Depth, count(lv.Total, "note"), strings.Join(paths, ", "))
		more(out, len(lv.Notes), lv.Total)
	}
}

func more(out io.Writer, shown, total int) {
	if total > shown {
		fmt.Fprintf(out, "  … and %d more (raise --limit)\n", total-shown)
	}
}

// count writes "1 note", "2 notes".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
