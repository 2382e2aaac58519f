package main

import (
	"context"
	"errors"
	"time"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/wiki"
)

type logCommand struct{ env }

func (c *logCommand) Usage() string {
	return `Usage: wikid log [flags]

Prints the wiki's activity: its commits, newest first, with the author, the
client and wikid tool that made them, and the notes they changed.

Examples:
  wikid log --since 2024-06-01 --tool edit_note
  wikid log --folder projects --author ada

Flags:
`
}

func (c *logCommand) Run(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "log", c.Usage())
	var req wiki.ActivityRequest
	since := cl.String("since", "", "only commits at or after this date (YYYY-MM-DD in the wiki's time zone, or RFC 3339)")
	until := cl.String("until", "", "only commits at or before this date (YYYY-MM-DD: the whole day)")
	cl.StringVar(&req.Author, "author", "", "only commits whose author name or email contains this")
	cl.StringVar(&req.Folder, "folder", "", "only commits that changed a note in this folder")
	cl.StringVar(&req.Path, "path", "", "only commits that changed this note")
	cl.StringVar(&req.Tool, "tool", "", "only commits made by this wikid tool (edit_note, ...)")
	cl.IntVar(&req.Limit, "limit", wiki.DefaultActivityLimit, "how many commits (at most 100)")
	cl.StringVar(&req.Cursor, "cursor", "", "continue after the page that printed this cursor")
	cl.jsonFlag()
	w, release, err := cl.parseAndOpen(ctx, args, 0, 0)
	if err != nil {
		return err
	}
	defer release()
	if req.Since, _, err = parseDateFlag(w, "since", *since); err != nil {
		return err
	}
	if _, req.Until, err = parseDateFlag(w, "until", *until); err != nil {
		return err
	}
	res, err := w.Activity(ctx, req)
	if err != nil {
		return err
	}
	return cl.printText("activity_log", res, render.Activity(res))
}

// parseDateFlag reads a flag's date by the wiki's one rule (see
// wiki.ParseDate): its first and last instant in the wiki's time zone.
func parseDateFlag(w *wiki.Wiki, flag, s string) (first, last time.Time, err error) {
	first, last, err = w.ParseDate(s)
	if err != nil {
		var e *wiki.Error
		if errors.As(err, &e) {
			err = wiki.Errorf(wiki.CodeInvalidParams, "--%s: %s", flag, e.Message).
				WithHint("give YYYY-MM-DD (in the wiki's time zone) or an RFC 3339 time such as 2024-06-01T10:00:00Z")
		}
	}
	return first, last, err
}
