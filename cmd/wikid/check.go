package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

type checkCommand struct{ env }

func (c *checkCommand) Usage() string {
	return `Usage: wikid check [flags] [FOLDER]

Checks the notes at HEAD (under FOLDER, or all): links that resolve to no
note or file or to a missing heading or block, frontmatter that does not
parse, and orphans (notes no other note links to). It also lists the links
whose bare name names several notes, with the one chosen. Links resolve as
links.resolve in .wikid.yaml says: obsidian (the default when the
repository has an .obsidian/ folder) or wiki. It exits with status 1 when a link
is broken or a frontmatter is malformed, and with --strict also when a note
is an orphan, so it fits a pre-commit hook or a CI job:

  wikid check || exit 1

Flags:
`
}

func (c *checkCommand) Run(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "check", c.Usage())
	strict := cl.Bool("strict", false, "count orphans as problems too")
	cl.jsonFlag()
	w, release, err := cl.parseAndOpen(ctx, args, 0, 1)
	if err != nil {
		return err
	}
	defer release()
	res, err := w.Check(ctx, cl.Arg(0))
	if err != nil {
		return err
	}
	failed := !res.OK() || *strict && len(res.Orphans) > 0
	err = cl.print("", res, func() error {
		c.print(res, *strict)
		return nil
	})
	if err != nil {
		return err
	}
	if failed {
		return exitError(1)
	}
	return nil
}

func (c *checkCommand) print(res *wiki.CheckResult, strict bool) {
	out := c.stdout
	for _, l := range res.BrokenLinks {
		target := l.Target
		if l.Heading != "" {
			target += "#" + l.Heading
		}
		reason := l.Reason
		if l.To != "" {
			reason += " in " + l.To
		}
		fmt.Fprintf(out, "%s:%d: broken link %s: %s\n", l.Path, l.Line, target, reason)
	}
	for _, m := range res.MalformedFrontmatter {
		fmt.Fprintf(out, "%s:%d: malformed frontmatter: %s\n", m.Path, m.Line, m.Error)
	}
	kind := "note"
	if strict {
		kind = "problem"
	}
	for _, o := range res.Orphans {
		fmt.Fprintf(out, "%s: orphan (%s): no other note links to it\n", o.Path, kind)
	}
	for _, a := range res.AmbiguousLinks {
		fmt.Fprintf(out, "%s:%d: link %s names %d notes, resolves to %s (also %s)\n",
			a.Path, a.Line, a.Target, len(a.Others)+1, a.To, strings.Join(a.Others, ", "))
	}
	ambiguous := ""
	if len(res.AmbiguousLinks) > 0 {
		ambiguous = ", " + count(len(res.AmbiguousLinks), "ambiguous link")
	}
	fmt.Fprintf(out, "%s, %s, %s%s\n", count(len(res.BrokenLinks), "broken link"),
		count(len(res.MalformedFrontmatter), "malformed frontmatter"), count(len(res.Orphans), "orphan"), ambiguous)
}
