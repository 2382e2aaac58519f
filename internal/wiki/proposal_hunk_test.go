package wiki_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestRejectProposal_hunk(t *testing.T) {
	long := numbered(30)
	dir := seeded(t, map[string]string{"long.md": long, "short.md": "one\ntwo\n"})
	w := openWiki(t, dir, nil)
	ctx := context.Background()
	changed := strings.NewReplacer("line 2\n", "LINE 2\n", "line 12\n", "LINE 12\n", "line 25\n", "LINE 25\n").Replace(long)
	me := proposer("s")
	id := mustWrite(t, w, me, "long.md", changed, true).Proposal
	mustWrite(t, w, me, "short.md", "one\nTWO\n", true)
	// The person edits between the hunks meanwhile: hunks count against
	// the branch now, and the person's line stays.
	gittest.Commit(t, dir, "person", map[string]string{"long.md": strings.Replace(long, "line 18\n", "line eighteen\n", 1)})
	head := gittest.Git(t, dir, "rev-parse", "HEAD")

	if _, err := w.RejectProposal(ctx, wiki.DecideRequest{ID: id, Notes: []string{"long"}, Hunk: 4}); wiki.CodeOf(err) != wiki.CodeNotFound {
		t.Errorf("hunk 4 of 3: %v, want NOT_FOUND", err)
	}
	if _, err := w.RejectProposal(ctx, wiki.DecideRequest{ID: id, Hunk: 1}); wiki.CodeOf(err) != wiki.CodeInvalidParams {
		t.Errorf("a hunk of no note named: %v, want INVALID_PARAMS", err)
	}
	res, err := w.RejectProposal(ctx, wiki.DecideRequest{ID: id, Notes: []string{"long"}, Hunk: 2, Comment: "keep line 12", By: person()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Hunk != "@@ -9,7 +9,7 @@" || res.Open != 2 || res.Commit != "" || len(res.Rejected) != 0 {
		t.Errorf("reject hunk 2 = %+v", res)
	}
	if got := gittest.Git(t, dir, "rev-parse", "HEAD"); got != head {
		t.Errorf("the branch moved to %s", got)
	}
	// The proposal's version of the note, as git shows it, lost that
	// hunk alone; the commit says who and why.
	ref := wiki.ProposalsRef + id
	tipNote := gittest.Git(t, dir, "show", ref+":long.md")
	for _, want := range []string{"LINE 2\n", "line 12\n", "LINE 25\n", "line eighteen\n"} {
		if !strings.Contains(tipNote, want) {
			t.Errorf("%s:long.md lacks %q:\n%s", ref, want, tipNote)
		}
	}
	msg := gittest.Git(t, dir, "log", "-1", "--format=%an <%ae>%n%B", ref)
	for _, want := range []string{"Pat Person <pat@example.com>", "reject: long @@ -9,7 +9,7 @@", "keep line 12", "Wiki-Rejected-Hunk: long.md"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the rejection's commit lacks %q:\n%s", want, msg)
		}
	}
	p, err := w.Proposal(ctx, id)
	if err != nil || len(p.Notes) != 2 || len(p.Notes[0].Hunks) != 2 || p.Notes[0].Additions != 2 {
		t.Fatalf("after rejecting a hunk, show = %+v, %v", p, err)
	}

	// The person edits again; accepting the rest merges with it.
	gittest.Commit(t, dir, "person again", map[string]string{"long.md": strings.NewReplacer("line 18\n", "line eighteen\n", "line 5\n", "line five\n").Replace(long)})
	if _, err := w.AcceptProposal(ctx, wiki.DecideRequest{ID: id, Notes: []string{"long"}, By: person()}); err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer("line 2\n", "LINE 2\n", "line 5\n", "line five\n", "line 18\n", "line eighteen\n", "line 25\n", "LINE 25\n").Replace(long)
	if got := gittest.Git(t, dir, "show", "HEAD:long.md"); got != want {
		t.Errorf("HEAD:long.md =\n%s\nwant\n%s", got, want)
	}

	// A note's only hunk rejected rejects the note.
	res, err = w.RejectProposal(ctx, wiki.DecideRequest{ID: id, Notes: []string{"short"}, Hunk: 1, By: person()})
	if err != nil || len(res.Rejected) != 1 || res.Closed != "partly accepted" {
		t.Errorf("reject the only hunk = %+v, %v", res, err)
	}
	if got := gittest.Git(t, dir, "show", "HEAD:short.md"); got != "one\ntwo\n" {
		t.Errorf("HEAD:short.md = %q", got)
	}
	gittest.Fsck(t, dir)
}

func TestWiki_ProposalPage(t *testing.T) {
	files := map[string]string{}
	for i := range 30 {
		files[fmt.Sprintf("n/%02d.md", i)] = fmt.Sprintf("# %d\n\nold\n", i)
	}
	w := openWiki(t, seeded(t, files), nil)
	ctx := context.Background()
	id := ""
	for i := range 30 {
		id = mustWrite(t, w, proposer("s"), fmt.Sprintf("n/%02d.md", i), fmt.Sprintf("# %d\n\nnew\n", i), true).Proposal
	}
	p, err := w.ProposalPage(ctx, wiki.ProposalPageRequest{ID: id, Offset: 10, Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if p.Open != 30 || p.Offset != 10 || len(p.Notes) != 5 || p.Notes[0].Path != "n/10" || p.Notes[4].Path != "n/14" || len(p.Notes[0].Hunks) != 1 {
		t.Errorf("page = open %d offset %d notes %+v", p.Open, p.Offset, p.Notes)
	}
	if p, err = w.ProposalPage(ctx, wiki.ProposalPageRequest{ID: id, Offset: 28, Limit: 5}); err != nil || len(p.Notes) != 2 {
		t.Errorf("last page = %+v, %v", p, err)
	}
	if _, err := w.ProposalPage(ctx, wiki.ProposalPageRequest{ID: id, Offset: -1}); wiki.CodeOf(err) != wiki.CodeInvalidParams {
		t.Errorf("offset -1: %v", err)
	}
	if _, _, ok, err := w.ProposalLines(ctx, id, 10); err != nil || ok {
		t.Errorf("30 notes counted with a bound of 10: %v, %v", ok, err)
	}
	add, del, ok, err := w.ProposalLines(ctx, id, 100)
	if err != nil || !ok || add != 30 || del != 30 {
		t.Errorf("lines = +%d -%d %v %v, want +30 -30", add, del, ok, err)
	}
}

// TestRejectProposal_afterHunkAccepted: a proposal of which one hunk was
// accepted, then the rest rejected, closes partly accepted, as git shows.
func TestRejectProposal_afterHunkAccepted(t *testing.T) {
	long := numbered(30)
	dir := seeded(t, map[string]string{"long.md": long})
	w := openWiki(t, dir, nil)
	ctx := context.Background()
	id := mustWrite(t, w, proposer("s"), "long.md", strings.NewReplacer("line 2\n", "LINE 2\n", "line 25\n", "LINE 25\n").Replace(long), true).Proposal
	if _, err := w.AcceptProposal(ctx, wiki.DecideRequest{ID: id, Notes: []string{"long"}, Hunk: 1, Comment: "the first only", By: person()}); err != nil {
		t.Fatal(err)
	}
	if got := gittest.Git(t, dir, "log", "-1", "--format=%s%n%b"); !strings.HasPrefix(got, "accept: long @@ -1,5 +1,5 @@ (proposal "+id+")") || !strings.Contains(got, "the first only") {
		t.Errorf("the hunk's commit:\n%s", got)
	}
	res, err := w.RejectProposal(ctx, wiki.DecideRequest{ID: id, By: person()})
	if err != nil || res.Closed != "partly accepted" {
		t.Fatalf("reject the rest = %+v, %v", res, err)
	}
	if got := gittest.Git(t, dir, "log", "-1", "--format=%B", wiki.ClosedProposalsRef+id); !strings.Contains(got, "Wiki-Closed: partly accepted") {
		t.Errorf("the closing commit:\n%s", got)
	}
	if got := gittest.Git(t, dir, "show", "HEAD:long.md"); !strings.Contains(got, "LINE 2\n") || strings.Contains(got, "LINE 25") {
		t.Errorf("HEAD:long.md =\n%s", got)
	}
}
