package wiki_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// TestWiki_PruneProposals closes two proposals 40 days apart, keeps one
// open, and prunes with a keeping time of 60 days at 70 days: only the
// first goes, and a dry run removes nothing.
func TestWiki_PruneProposals(t *testing.T) {
	dir := proposalRepo(t)
	now := time.Date(2024, 6, 1, 10, 30, 0, 0, time.UTC)
	keep := 60 * 24 * time.Hour
	w := openWiki(t, dir, func(o *wiki.Options) {
		o.Now = func() time.Time { return now }
		o.KeepClosedProposals = keep
	})
	ctx := context.Background()
	old := mustWrite(t, w, proposer("s1"), "old.md", "# Old\n", false).Proposal
	newer := mustWrite(t, w, proposer("s2"), "newer.md", "# Newer\n", false).Proposal
	open := mustWrite(t, w, proposer("s3"), "open.md", "# Open\n", false).Proposal
	if _, err := w.RejectProposal(ctx, wiki.DecideRequest{ID: old, By: person()}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(40 * 24 * time.Hour)
	if _, err := w.RejectProposal(ctx, wiki.DecideRequest{ID: newer, By: person()}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(30 * 24 * time.Hour) // 70 days after the first close
	refs := func() string {
		return gittest.Git(t, dir, "for-each-ref", "--format=%(refname)", "refs/wikid/")
	}
	before := refs()

	dry, err := w.PruneProposals(ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(dry) != 1 || dry[0].ID != old || dry[0].Closed != "rejected" || dry[0].By.Name != "Pat Person" {
		t.Fatalf("dry run: %+v", dry)
	}
	if refs() != before {
		t.Fatalf("a dry run changed the refs:\n%s", refs())
	}
	pruned, err := w.PruneProposals(ctx, false)
	if err != nil || len(pruned) != 1 || pruned[0].ID != old {
		t.Fatalf("prune: %+v, %v", pruned, err)
	}
	got := refs()
	if strings.Contains(got, old) || !strings.Contains(got, wiki.ClosedProposalsRef+newer) || !strings.Contains(got, wiki.ProposalsRef+open) {
		t.Errorf("after the prune:\n%s", got)
	}
	list, err := w.Proposals(ctx, true)
	if err != nil || len(list) != 2 {
		t.Errorf("proposals after the prune: %+v, %v", list, err)
	}
	gittest.Fsck(t, dir)

}
