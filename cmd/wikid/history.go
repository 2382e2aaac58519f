package main

import (
	"context"
	"fmt"

	"github.com/wikid/wikid/internal/wiki"
)

type historyCommand struct{ env }

func (c *historyCommand) Usage() string {
	return `Usage: wikid history [flags] PATH

Lists the commits that changed a note, newest first, as 'git log --follow'
does (or 'git log -- file' with --no-follow): short sha, date, author,
what happened to the note and the lines added and deleted ("? ?" when a
version is missing from this repository, as in a partial clone). A deleted
note has a history too.

Flags:
`
}

func (c *historyCommand) Run(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "history", c.Usage())
	noFollow := cl.Bool("no-follow", false, "stop at a rename instead of following the note to its old path")
	limit := cl.Int("limit", wiki.MaxHistoryLimit, "how many commits (at most 100)")
	cursor := cl.String("cursor", "", "continue after the page that printed this cursor")
	cl.jsonFlag()
	w, release, err := cl.parseAndOpen(ctx, args, 1, 1)
	if err != nil {
		return err
	}
	defer release()
	res, err := w.History(ctx, wiki.HistoryRequest{Path: cl.Arg(0), NoFollow: *noFollow, Limit: *limit, Cursor: *cursor})
	if err != nil {
		return err
	}
	return cl.print("note_history", res, func() error {
		c.print(res)
		return nil
	})
}

// print prints a note's history for people, a commit a line.
func (c *historyCommand) print(res *wiki.HistoryResult) {
	if !res.Exists {
		fmt.Fprintf(c.stdout, "%s no longer exists; its history:\n", res.Path)
	}
	for _, r := range res.Revisions {
		change := string(r.Change)
		if r.OldPath != "" {
			change += " from " + r.OldPath
		}
		if r.RenameUnknown {
			change += ", or renamed: " + missingVersion
		}
		fmt.Fprintf(c.stdout, "%s %s %-20s %-9s %s\n", r.Short, r.Date.Format("2006-01-02 15:04"), r.Author, counts(r.Additions, r.Deletions, r.LinesUnknown), r.Subject)
		if r.Change != wiki.ChangeModified {
			fmt.Fprintf(c.stdout, "        %s\n", change)
		}
	}
	if res.NextCursor != "" {
		fmt.Fprintf(c.stdout, "%d of %d commits; more with --cursor %s\n", len(res.Revisions), res.Total, res.NextCursor)
	}
}

// missingVersion says why a count or a rename is unknown.
const missingVersion = "a version is missing from this repository (a partial clone?)"

// counts formats added and deleted lines, "binary" for a binary file and
// "? ?" when a version the counts need is missing.
func counts(add, del int, unknown bool) string {
	switch {
	case unknown:
		return "? ?"
	case add < 0:
		return "binary"
	}
	return fmt.Sprintf("+%d -%d", add, del)
}
