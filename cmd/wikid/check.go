package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/wiki"
)

type checkCommand struct{ env }

func (c *checkCommand) Usage() string {
	return fmt.Sprintf(`Usage: wikid check [flags] [FOLDER]

Checks the notes at HEAD (under FOLDER, or all) and prints what it finds in
sections, each left out when empty:

  Broken links           links that resolve to no note or file, or to a
                         missing heading or block: each note's path, then
                         its broken links' lines, targets and reasons
  Malformed frontmatter  notes whose frontmatter does not parse, and why
  Orphans                notes no other note links to
  Ambiguous links        with --ambiguous only: links whose bare name names
                         several notes, by note, with the one chosen and up
                         to %d of the others

A last line counts each kind. Links resolve as links.resolve in .wikid.yaml
says: obsidian (the default when the repository has an .obsidian/ folder) or
wiki. --json prints every finding, ambiguous links included, as the MCP
tool does. It exits with status 1 when a link is broken or a frontmatter is
malformed, and with --strict also when a note is an orphan, so it fits a
pre-commit hook or a CI job:

  wikid check || exit 1

Flags:
`, maxAlternatives)
}

func (c *checkCommand) Run(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "check", c.Usage())
	strict := cl.Bool("strict", false, "count orphans as problems too")
	ambiguous := cl.Bool("ambiguous", false, "list the links whose bare name names several notes")
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
		printCheck(c.stdout, res, *strict, *ambiguous)
		if len(res.BrokenLinks)+len(res.AmbiguousLinks) > 0 {
			fmt.Fprintln(c.stdout, resolutionLine(w.LinkResolution()))
		}
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

// resolutionLine says how the links were resolved, which decides which
// are broken.
func resolutionLine(r wiki.LinkResolution) string {
	if r == wiki.ResolveObsidian {
		return "Links resolve as Obsidian resolves them: [[name]] by file name (links.resolve: obsidian)."
	}
	return "Links resolve by file name, title or alias (links.resolve: wiki)."
}

// maxAlternatives is how many of an ambiguous link's other notes check
// lists before "and N more".
const maxAlternatives = 3

// printCheck prints res for people: a section for each kind of finding,
// the most urgent first, ambiguous links only when listAmbiguous, then a
// line counting them all.
func printCheck(out io.Writer, res *wiki.CheckResult, strict, listAmbiguous bool) {
	sep := ""
	section := func(title string) {
		fmt.Fprintf(out, "%s%s:\n", sep, title)
		sep = "\n"
	}
	broken := byNote(res.BrokenLinks, func(l wiki.BrokenLink) string { return l.Path })
	if len(broken) > 0 {
		section("Broken links")
		for _, g := range broken {
			fmt.Fprintf(out, "  %s\n", g[0].Path)
			for _, l := range g {
				target, reason := render.BrokenTarget(l)
				fmt.Fprintf(out, "    line %d  %s: %s\n", l.Line, target, reason)
			}
		}
	}
	if len(res.MalformedFrontmatter) > 0 {
		section("Malformed frontmatter")
		for _, m := range res.MalformedFrontmatter {
			msg := strings.TrimPrefix(m.Error, "frontmatter: ")
			if line := fmt.Sprintf("line %d", m.Line); m.Line > 0 && !strings.Contains(msg, line) {
				msg = line + ": " + msg
			}
			fmt.Fprintf(out, "  %s: %s\n", m.Path, msg)
		}
	}
	if len(res.Orphans) > 0 {
		if strict {
			section("Orphans (no other note links to them; problems with --strict)")
		} else {
			section("Orphans (no other note links to them)")
		}
		for _, o := range res.Orphans {
			fmt.Fprintf(out, "  %s\n", o.Path)
		}
	}
	if listAmbiguous && len(res.AmbiguousLinks) > 0 {
		section("Ambiguous links (the note each resolves to, then the others)")
		for _, g := range byNote(res.AmbiguousLinks, func(a wiki.AmbiguousLink) string { return a.Path }) {
			fmt.Fprintf(out, "  %s\n", g[0].Path)
			for _, a := range g {
				fmt.Fprintf(out, "    line %d  %s -> %s (also %s)\n", a.Line, a.Target, a.To, alternatives(a.Others))
			}
		}
	}
	fmt.Fprintf(out, "%s%s\n", sep, checkSummary(res, len(broken), listAmbiguous))
}

// checkSummary counts each kind of finding in one line; notes is the
// number of notes with broken links.
func checkSummary(res *wiki.CheckResult, notes int, listAmbiguous bool) string {
	s := render.Plural(len(res.BrokenLinks), "broken link")
	if notes > 0 {
		s += " in " + render.Plural(notes, "note")
	}
	s += fmt.Sprintf(", %d malformed frontmatter, %s", len(res.MalformedFrontmatter), render.Plural(len(res.Orphans), "orphan"))
	if n := len(res.AmbiguousLinks); n > 0 {
		s += ", " + render.Plural(n, "ambiguous link")
		if !listAmbiguous {
			s += " (list them with --ambiguous)"
		}
	}
	return s
}

// alternatives joins up to maxAlternatives of others, and says how many
// more there are.
func alternatives(others []string) string {
	if len(others) <= maxAlternatives {
		return strings.Join(others, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(others[:maxAlternatives], ", "), len(others)-maxAlternatives)
}

// byNote groups items by the note path holds them, in the order each note
// first appears.
func byNote[T any](items []T, path func(T) string) [][]T {
	var groups [][]T
	at := map[string]int{}
	for _, it := range items {
		p := path(it)
		i, ok := at[p]
		if !ok {
			i = len(groups)
			at[p] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], it)
	}
	return groups
}
