package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/wiki"
)

type editCommand struct{ env }

func (c *editCommand) Usage() string {
	return `Usage: wikid edit [flags] --op OP PATH

Changes part of a note as one commit. OP is one of append, prepend, replace,
append_section, prepend_section, replace_section, insert_before,
insert_after, delete_section. The content comes from --content, or from
standard input when --content is absent or "-" (not read for delete_section).

Examples:
  echo "- call Ana" | wikid edit --op append_section --section Tasks journal/2024-06-01
  wikid edit --op replace --find "draft" --content "final" projects/plan

Flags:
`
}

func (c *editCommand) Run(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "edit", c.Usage())
	var e note.Edit
	cl.StringVar(&e.Op, "op", "", "the edit operation (required)")
	cl.StringVar(&e.Find, "find", "", "text to find, for replace")
	cl.StringVar(&e.Section, "section", "", "heading text or Parent/Child, for section operations")
	cl.IntVar(&e.ExpectedMatches, "expected-matches", 1, "how many times --find must match")
	content := cl.String("content", "", `the new content ("-" reads standard input)`)
	mf := addMutationFlags(cl)
	if err := cl.parse(args, 1, 1); err != nil {
		return err
	}
	if e.Op == "" {
		fmt.Fprint(c.stderr, "wikid edit: --op is required\n\n")
		cl.Usage()
		return exitError(2)
	}
	if e.Op != note.OpDeleteSection {
		var err error
		if e.Content, err = readInput(c.env, *content, flagGiven(cl.FlagSet, "content")); err != nil {
			return err
		}
	}
	w, release, err := cl.open(ctx)
	if err != nil {
		return err
	}
	defer release()
	res, err := w.Edit(ctx, wiki.EditRequest{Path: cl.pathArg(0), Edits: []note.Edit{e}, Mutation: mf.mutation(cl.who)})
	if err != nil {
		return err
	}
	return cl.printText("edit_note", res, render.Edited(cl.Arg(0), 1, res))
}

// flagGiven reports whether the flag was set on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
