package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

type proposalsCommand struct{ env }

func (c *proposalsCommand) Usage() string {
	return `Usage: wikid proposals list [--closed]
       wikid proposals show ID
       wikid proposals accept [--note PATH]... [--comment TEXT] ID
       wikid proposals reject [--note PATH]... [--comment TEXT] ID

An assistant in propose mode (wikid serve --propose, or a client that
.wikid.yaml names under proposals) does not change the notes: each of its
sessions keeps its changes in one proposal, a ref of commits on top of the
branch (git log main..refs/wikid/proposals/ID shows it).

list prints the open proposals (with --closed the closed ones too); show
prints each open note's change against the branch as it is now; accept lands
the changes of the notes named with --note (all open notes without one) as
one commit, authored by the assistant and committed by you, merged with what
you changed meanwhile; a note that does not merge is printed and stays open.
reject drops them. A proposal whose notes are all decided is closed and kept
under refs/wikid/proposals-closed/.

Flags:
`
}

func (c *proposalsCommand) Run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(c.stderr, c.Usage())
		return exitError(2)
	}
	switch args[0] {
	case "list":
		return c.list(ctx, args[1:])
	case "show":
		return c.show(ctx, args[1:])
	case "accept", "reject":
		return c.decide(ctx, args[0], args[1:])
	}
	return fmt.Errorf("proposals: unknown subcommand %q (list, show, accept or reject)", args[0])
}

func (c *proposalsCommand) list(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "proposals list", c.Usage())
	closed := cl.Bool("closed", false, "list the closed proposals too")
	asJSON := cl.Bool("json", false, "print the result as JSON")
	w, release, err := cl.parseAndOpen(ctx, args, 0, 0)
	if err != nil {
		return err
	}
	defer release()
	list, err := w.Proposals(ctx, *closed)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(c.stdout, list)
	}
	if len(list) == 0 {
		_, err := fmt.Fprintln(c.stdout, "No open proposals.")
		return err
	}
	for _, p := range list {
		state := fmt.Sprintf("%d open", p.Open)
		if p.Closed != "" {
			state = p.Closed
		}
		fmt.Fprintf(c.stdout, "%s  %s  %s  %d commits, %s (%d accepted, %d rejected)\n",
			p.ID, p.Client, p.Updated.Format(time.DateTime), p.Commits, state, p.Accepted, p.Rejected)
	}
	return nil
}

func (c *proposalsCommand) show(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "proposals show", c.Usage())
	asJSON := cl.Bool("json", false, "print the result as JSON")
	w, release, err := cl.parseAndOpen(ctx, args, 1, 1)
	if err != nil {
		return err
	}
	defer release()
	p, err := w.Proposal(ctx, cl.Arg(0))
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(c.stdout, p)
	}
	fmt.Fprintf(c.stdout, "Proposal %s by %s, %d commits, %d open notes (git log %s..%s)\n\n",
		p.ID, p.Client, p.Commits, len(p.Notes), shortID(p.Branch), p.Ref)
	for i, n := range p.Notes {
		fmt.Fprintf(c.stdout, "%d. %s  %s, %s (+%d -%d)\n", i+1, n.Path, n.Action, n.State, n.Additions, n.Deletions)
		if n.Why != "" {
			fmt.Fprintf(c.stdout, "   %s\n", n.Why)
		}
		if n.Diff != "" {
			io.WriteString(c.stdout, indent(n.Diff))
		}
		fmt.Fprintln(c.stdout)
	}
	return nil
}

func (c *proposalsCommand) decide(ctx context.Context, verb string, args []string) error {
	cl := newCommandLine(c.env, "proposals "+verb, c.Usage())
	var notes stringList
	cl.Var(&notes, "note", "decide only this note (a path; may be given several times)")
	comment := cl.String("comment", "", "why: goes into the commit message")
	asJSON := cl.Bool("json", false, "print the result as JSON")
	cl.authorFlag()
	w, release, err := cl.parseAndOpen(ctx, args, 1, 1)
	if err != nil {
		return err
	}
	defer release()
	req := wiki.DecideRequest{ID: cl.Arg(0), Notes: notes, Comment: *comment, By: cl.who.Author}
	decide := w.AcceptProposal
	if verb == "reject" {
		decide = w.RejectProposal
	}
	res, err := decide(ctx, req)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(c.stdout, res)
	}
	if res.Commit != "" {
		fmt.Fprintf(c.stdout, "Committed %s.\n", shortID(res.Commit))
	}
	if len(res.Accepted) > 0 {
		fmt.Fprintf(c.stdout, "Accepted: %s\n", strings.Join(res.Accepted, ", "))
	}
	if len(res.Rejected) > 0 {
		fmt.Fprintf(c.stdout, "Rejected: %s\n", strings.Join(res.Rejected, ", "))
	}
	for _, n := range res.Conflicts {
		fmt.Fprintf(c.stdout, "Not merged, still open: %s: %s\n", n.Path, n.Why)
	}
	if res.Closed != "" {
		fmt.Fprintf(c.stdout, "Proposal %s is closed: %s.\n", req.ID, res.Closed)
	} else {
		fmt.Fprintf(c.stdout, "%d notes remain open.\n", res.Open)
	}
	if len(res.Conflicts) > 0 {
		return exitError(1)
	}
	return nil
}

// writeJSON prints v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// indent indents every line of s by three spaces.
func indent(s string) string {
	lines := strings.SplitAfter(strings.TrimSuffix(s, "\n"), "\n")
	return "   " + strings.Join(lines, "   ") + "\n"
}

// shortID abbreviates a commit id.
func shortID(id string) string {
	if len(id) > 7 {
		return id[:7]
	}
	return id
}
