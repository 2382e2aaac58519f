package main

import (
	"context"
	"fmt"

	"github.com/wikid/wikid/internal/wiki"
)

type grepCommand struct{ env }

func (c *grepCommand) Usage() string {
	return `Usage: wikid grep [flags] PATTERN

Prints the lines of notes at HEAD that contain PATTERN, as path:line:text.
The match ignores case unless --case-sensitive; --regex takes an RE2
regular expression.

Flags:
`
}

func (c *grepCommand) Run(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "grep", c.Usage())
	var req wiki.GrepRequest
	cl.BoolVar(&req.Regex, "regex", false, "PATTERN is a regular expression")
	cl.BoolVar(&req.CaseSensitive, "case-sensitive", false, "match case")
	cl.StringVar(&req.Folder, "folder", "", "only notes under this folder")
	cl.IntVar(&req.Limit, "limit", 1000, "at most this many lines")
	cl.jsonFlag()
	w, release, err := cl.parseAndOpen(ctx, args, 1, 1)
	if err != nil {
		return err
	}
	defer release()
	req.Pattern = cl.Arg(0)
	res, err := w.Grep(ctx, req)
	if err != nil {
		return err
	}
	return cl.print("grep_notes", res, func() error { return c.print(res) })
}

// print prints the matching lines for people, as path:line:text; with no
// line it asks for exit status 1, as grep does.
func (c *grepCommand) print(res *wiki.GrepResult) error {
	for _, m := range res.Matches {
		fmt.Fprintf(c.stdout, "%s:%d:%s\n", m.Path, m.Line, m.Text)
	}
	if res.Truncated {
		fmt.Fprintf(c.stderr, "more lines match; raise --limit to see them\n")
	}
	if len(res.Matches) == 0 {
		return exitError(1)
	}
	return nil
}
