package gitsync_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// proposingSession is an assistant's session in propose mode.
var proposingSession = wiki.Caller{Client: "claude-code/1.0", Session: "s1", Propose: true,
	Author: wiki.Identity{Name: "claude-code", Email: "claude-code@mcp.wikid"}}

func (m *machine) propose(t *testing.T, path, content string) string {
	t.Helper()
	res, err := m.w.Write(context.Background(), wiki.WriteRequest{Path: path, Content: content, Overwrite: true,
		Mutation: wiki.Mutation{Caller: proposingSession}})
	if err != nil || res.Proposal == "" {
		t.Fatalf("propose %s: %v (proposal %q)", path, err, res.Proposal)
	}
	return res.Proposal
}

// refOf returns what ref points at in dir, as git reads it; "" when it
// does not exist.
func refOf(t *testing.T, dir, ref string) string {
	t.Helper()
	out := gittest.Git(t, dir, "for-each-ref", "--format=%(objectname)", ref)
	return strings.TrimSpace(out)
}

func openNotes(t *testing.T, m *machine, id string) []string {
	t.Helper()
	p, err := m.w.Proposal(context.Background(), id)
	if err != nil {
		t.Fatalf("proposal %s: %v", id, err)
	}
	var out []string
	for _, n := range p.Notes {
		out = append(out, n.Path)
	}
	return out
}

// TestSyncer_Proposals checks that proposals travel with sync: a proposal
// made on one machine is reviewed on the other; decisions taken there
// while the assistant goes on proposing here are merged with its changes
// (a decision about a note changed again meanwhile is dropped, the note
// stays open); a proposal closed there is closed here too (closed wins),
// and what was proposed here after the close waits in a new proposal,
// where the session goes on.
func TestSyncer_Proposals(t *testing.T) {
	ctx := context.Background()
	remote := remoteWith(t, map[string]string{"a.md": "# A\n\none\n", "b.md": "# B\n\nbee\n"})
	a, b := cloneOf(t, remote), cloneOf(t, remote)

	id := a.propose(t, "new", "# New\n\nfirst\n")
	a.propose(t, "b", "# B\n\nbee, proposed\n")
	a.propose(t, "x", "# X\n")
	a.round(t)
	b.round(t)
	if got, want := refOf(t, b.dir, wiki.ProposalsRef+id), refOf(t, a.dir, wiki.ProposalsRef+id); got == "" || got != want {
		t.Fatalf("B has the proposal at %q, A at %q", got, want)
	}
	if got := openNotes(t, b, id); !slices.Equal(got, []string{"b", "new", "x"}) {
		t.Fatalf("B reviews %v", got)
	}

	// B accepts b and rejects new; meanwhile A's session edits a and
	// writes new again.
	person := wiki.Identity{Name: "Pat", Email: "pat@example.com"}
	if _, err := b.w.AcceptProposal(ctx, wiki.DecideRequest{ID: id, Notes: []string{"b"}, By: person}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.w.RejectProposal(ctx, wiki.DecideRequest{ID: id, Notes: []string{"new"}, By: person, Comment: "not now"}); err != nil {
		t.Fatal(err)
	}
	a.propose(t, "a", "# A\n\none, proposed\n")
	a.propose(t, "new", "# New\n\nsecond\n")
	a.round(t)
	b.round(t)
	a.round(t)
	tipA, tipB := refOf(t, a.dir, wiki.ProposalsRef+id), refOf(t, b.dir, wiki.ProposalsRef+id)
	if tipA == "" || tipA != tipB || refOf(t, remote, wiki.ProposalsRef+id) != tipA {
		t.Fatalf("the proposal is at %q on A, %q on B, %q on the remote", tipA, tipB, refOf(t, remote, wiki.ProposalsRef+id))
	}
	for _, m := range []*machine{a, b} {
		if got := openNotes(t, m, id); !slices.Equal(got, []string{"a", "new", "x"}) {
			t.Errorf("%s reviews %v, want a, new and x (new changed again after its rejection)", m.dir, got)
		}
	}
	if show(t, a.dir, "HEAD", "b.md") != "# B\n\nbee, proposed\n" {
		t.Errorf("the accepted note did not reach A: %q", show(t, a.dir, "HEAD", "b.md"))
	}
	if log := gittest.Git(t, a.dir, "log", "--format=%s", wiki.ProposalsRef+id); !strings.Contains(log, "accept: 1 notes") || strings.Contains(log, "reject: 1 notes") {
		t.Errorf("want the accept replayed and the rejection of the note changed since dropped:\n%s", log)
	}

	// B rejects the rest, which closes the proposal there; A's session
	// proposes c before it hears of it.
	if res, err := b.w.RejectProposal(ctx, wiki.DecideRequest{ID: id, By: person}); err != nil || res.Closed != "partly accepted" {
		t.Fatalf("reject: %+v, %v", res, err)
	}
	a.propose(t, "c", "# C\n\nlate\n")
	b.round(t)
	res := a.round(t)
	if !strings.Contains(strings.Join(res.Proposals, "\n"), "partly accepted on the other side: closed here too") {
		t.Errorf("the round does not say the proposal closed: %q", res.Proposals)
	}
	if refOf(t, a.dir, wiki.ProposalsRef+id) != "" || refOf(t, a.dir, wiki.ClosedProposalsRef+id) != refOf(t, b.dir, wiki.ClosedProposalsRef+id) {
		t.Fatalf("A did not take B's close: open %q closed %q", refOf(t, a.dir, wiki.ProposalsRef+id), refOf(t, a.dir, wiki.ClosedProposalsRef+id))
	}
	late := a.w.ProposalOf(proposingSession)
	if late == id || late == "" {
		t.Fatalf("the session is on proposal %q", late)
	}
	if got := openNotes(t, a, late); !slices.Equal(got, []string{"c"}) {
		t.Errorf("the late proposal holds %v, want c", got)
	}
	if more := a.propose(t, "d", "# D\n"); more != late {
		t.Errorf("the session's next change went to %q, want %q", more, late)
	}
	if got, err := a.w.Read(a.w.ForCaller(ctx, proposingSession), wiki.ReadRequest{Path: "c"}); err != nil || !strings.Contains(got.Content, "late") {
		t.Errorf("the session does not read its late change: %v", err)
	}
	a.round(t)
	b.round(t)
	if got := openNotes(t, b, late); !slices.Equal(got, []string{"c", "d"}) {
		t.Errorf("B reviews %v of the late proposal", got)
	}
	if refOf(t, remote, wiki.ProposalsRef+id) != "" {
		t.Error("the remote still has the closed proposal open")
	}
	for _, m := range []*machine{a, b} {
		gittest.Fsck(t, m.dir)
	}
}

// TestSyncer_ProposalsLocal checks that a wiki that keeps its proposals
// local neither pushes nor fetches them.
func TestSyncer_ProposalsLocal(t *testing.T) {
	remote := remoteWith(t, map[string]string{"a.md": "# A\n"})
	a := cloneOf(t, remote)
	id := a.propose(t, "travels", "# Travels\n")
	a.round(t)

	dir := t.TempDir() + "/local"
	gittest.Git(t, t.TempDir(), "clone", "-q", "-b", "main", remote, dir)
	local := openMachineWith(t, dir, func(o *wiki.Options) { o.ProposalsLocal = true })
	stays := local.propose(t, "stays", "# Stays\n")
	local.write(t, "shared", "# Shared\n")
	if res := local.round(t); !res.Pushed {
		t.Fatalf("%+v", res)
	}
	if refOf(t, remote, wiki.ProposalsRef+stays) != "" {
		t.Error("the local proposal was pushed")
	}
	if refOf(t, local.dir, wiki.ProposalsRef+id) != "" {
		t.Error("the other machine's proposal was fetched")
	}
	if refOf(t, remote, wiki.ProposalsRef+id) == "" {
		t.Error("the travelling proposal is not on the remote")
	}
}
