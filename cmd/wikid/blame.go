package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

type blameCommand struct{ env }

func (c *blameCommand) Usage() string {
	return `Usage: wikid blame [flags] PATH

Prints each line of a note with the commit that last changed it, its author
and date, as 'git blame' assigns them (renames followed). A commit marked
^ had an older version of the note that is missing from this repository (a
partial clone): its lines were last changed by it or an earlier commit.

Flags:
`
}

func (c *blameCommand) Run(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "blame", c.Usage())
	section := cl.String("section", "", "only this section: heading text, or Parent/Child")
	cl.json = cl.Bool("json", false, "print the line ranges as JSON")
	w, release, err := cl.parseAndOpen(ctx, args, 1, 1)
	if err != nil {
		return err
	}
	defer release()
	res, err := w.Blame(ctx, wiki.BlameRequest{Path: cl.pathArg(0), Section: *section})
	if err != nil {
		return err
	}
	return cl.print("blame_note", res, func() error { return c.print(ctx, w, res) })
}

// print prints the blamed lines for people, as 'git blame' does, reading
// them from the note at the blamed commit.
func (c *blameCommand) print(ctx context.Context, w *wiki.Wiki, res *wiki.BlameResult) error {
	note, err := w.Read(ctx, wiki.ReadRequest{Path: res.File, Version: res.Commit, MaxChars: 1 << 30})
	if err != nil {
		return err
	}
	lines := strings.SplitAfter(note.Content, "\n")
	width := len(fmt.Sprint(len(lines)))
	for _, r := range res.Ranges {
		author, _, _ := strings.Cut(r.Author, " <")
		short := r.Short
		if r.OriginUnknown {
			short = "^" + short // as git marks a boundary: this commit or an earlier one
		}
		for n := r.Start; n <= r.End && n <= len(lines); n++ {
			fmt.Fprintf(c.stdout, "%s (%-16.16s %s %*d) %s", short, author, r.Date.Format("2006-01-02"), width, n, lines[n-1])
			if !strings.HasSuffix(lines[n-1], "\n") {
				fmt.Fprintln(c.stdout)
			}
		}
	}
	return nil
}
