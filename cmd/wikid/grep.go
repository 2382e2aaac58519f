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
	fs := newFlagSet("grep", c.Usage(), c.stderr)
	repo := repoFlag(fs, c.env)
	var req wiki.GrepRequest
	fs.BoolVar(&req.Regex, "regex", false, "PATTERN is a regular expression")
	fs.BoolVar(&req.CaseSensitive, "case-sensitive", false, "match case")
	fs.StringVar(&req.Folder, "folder", "", "only notes under this folder")
	fs.IntVar(&req.Limit, "limit", 1000, "at most this many lines")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if err := parseArgs(fs, args, 1, 1); err != nil {
		return err
	}
	req.Pattern = fs.Arg(0)
	w, release, err := openWiki(ctx, c.env, *repo, nil)
	if err != nil {
		return err
	}
	defer release()
	res, err := w.Grep(ctx, req)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(c.stdout, "grep_notes", res)
	}
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
