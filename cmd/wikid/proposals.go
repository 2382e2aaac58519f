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
       wikid proposals accept ID [--note PATH [--hunk N]]... [--comment TEXT]
       wikid proposals reject ID [--note PATH [--hunk N]]... [--comment TEXT]
       wikid proposals prune [--dry-run]

An assistant in propose mode (wikid serve --propose, or a client that
.wikid.yaml names under proposals) does not change the notes: each of its
sessions keeps its changes in one proposal, a ref of commits on top of the
branch (git log main..refs/wikid/proposals/ID shows it).

list prints the open proposals (with --closed the closed ones too); show
prints each open note's change against the branch as it is now; accept lands
the changes of the notes named with --note (all open notes without one) as
one commit, authored by the assistant and committed by you, merged with what
you changed meanwhile; a note that does not merge is printed and stays open.
With --hunk N, accept takes only the N-th hunk of the one note --note names,
counted as show prints its @@ lines, and the note stays open for the rest.
reject drops them; with --hunk N only that hunk, and the note stays open
for the rest. A proposal whose notes are all decided is closed and kept
under refs/wikid/proposals-closed/, until prune removes it: closed
proposals are kept for proposals.keep_closed of .wikid.yaml (default 90d),
and the daemon prunes them by itself; --dry-run prints what prune would
remove. Proposals travel with wikid sync unless proposals.local is true.

Flags:
`
}

// proposalsFlags are the flags of wikid proposals, one set for its
// subcommands, as wikid daemon has.
type proposalsFlags struct {
	closed, json *bool
	dryRun       *bool
	comment      *string
	hunk         *int
	notes        stringList
}

func (c *proposalsCommand) Run(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "proposals", c.Usage())
	var f proposalsFlags
	f.closed = cl.Bool("closed", false, "list: the closed proposals too")
	f.json = cl.Bool("json", false, "print the result as JSON")
	f.dryRun = cl.Bool("dry-run", false, "prune: print what would be removed, remove nothing")
	f.comment = cl.String("comment", "", "accept, reject: why; goes into the commit message")
	cl.Var(&f.notes, "note", "accept, reject: only this note (a path; may be given several times)")
	f.hunk = cl.Int("hunk", 0, "accept, reject: only this hunk (from 1, as show prints them) of the one --note")
	cl.authorFlag()
	if err := cl.parse(args, 1, 2); err != nil {
		return err
	}
	sub, want := cl.Arg(0), 1
	switch sub {
	case "list", "prune":
		want = 0
	case "show", "accept", "reject":
	default:
		fmt.Fprintf(c.stderr, "wikid proposals: unknown subcommand %q: want list, show, accept, reject or prune\n\n", sub)
		cl.Usage()
		return exitError(2)
	}
	if n := cl.NArg() - 1; n != want {
		fmt.Fprintf(c.stderr, "wikid proposals %s: want %d arguments, got %d\n\n", sub, want, n)
		cl.Usage()
		return exitError(2)
	}
	if want == 0 || sub == "show" {
		cl.author = nil // only a decision commits: no author to settle
	}
	w, release, err := cl.open(ctx)
	if err != nil {
		return err
	}
	defer release()
	switch sub {
	case "list":
		return c.list(ctx, w, f)
	case "prune":
		return c.prune(ctx, w, f)
	case "show":
		return c.show(ctx, w, cl.Arg(1), f)
	}
	return c.decide(ctx, w, sub, wiki.DecideRequest{ID: cl.Arg(1), Notes: f.notes, Comment: *f.comment, By: cl.who.Author, Hunk: *f.hunk}, f)
}

func (c *proposalsCommand) list(ctx context.Context, w *wiki.Wiki, f proposalsFlags) error {
	list, err := w.Proposals(ctx, *f.closed)
	if err != nil {
		return err
	}
	if *f.json {
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

func (c *proposalsCommand) show(ctx context.Context, w *wiki.Wiki, id string, f proposalsFlags) error {
	p, err := w.Proposal(ctx, id)
	if err != nil {
		return err
	}
	if *f.json {
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

func (c *proposalsCommand) decide(ctx context.Context, w *wiki.Wiki, verb string, req wiki.DecideRequest, f proposalsFlags) error {
	decide := w.AcceptProposal
	if verb == "reject" {
		decide = w.RejectProposal
	}
	res, err := decide(ctx, req)
	if err != nil {
		return err
	}
	if *f.json {
		return writeJSON(c.stdout, res)
	}
	if res.Commit != "" {
		fmt.Fprintf(c.stdout, "Committed %s.\n", shortID(res.Commit))
	}
	if res.Hunk != "" {
		fmt.Fprintf(c.stdout, "%sed %s of %s; its other hunks stay open.\n", strings.ToUpper(verb[:1])+verb[1:], res.Hunk, strings.Join(req.Notes, ", "))
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
