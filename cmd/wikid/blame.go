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
	fs := newFlagSet("blame", c.Usage(), c.stderr)
	repo := repoFlag(fs, c.env)
	section := fs.String("section", "", "only this section: heading text, or Parent/Child")
	asJSON := fs.Bool("json", false, "print the line ranges as JSON")
	if err := parseArgs(fs, args, 1, 1); err != nil {
		return err
	}
	w, release, err := openWiki(ctx, c.env, *repo, nil)
	if err != nil {
		return err
	}
	defer release()
	res, err := w.Blame(ctx, wiki.BlameRequest{Path: fs.Arg(0), Section: *section})
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(c.stdout, "blame_note", res)
	}
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
