package wiki_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// TestAcceptProposal_branchRewritten proposes on a branch that the person
// then rewrites (an amended commit, as a rebase or a force-push leaves
// it): the proposal's base is no longer an ancestor of the branch. Accept
// merges three ways against the branch as it is and keeps every commit
// of the person's.
func TestAcceptProposal_branchRewritten(t *testing.T) {
	dir := proposalRepo(t)
	gittest.Commit(t, dir, "person: five", map[string]string{"a.md": strings.Replace(seedA, "five", "cinq", 1)})
	w := openWiki(t, dir, nil)
	ctx := context.Background()
	base := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	proposed := strings.Replace(strings.Replace(seedA, "five", "cinq", 1), "one", "ONE", 1)
	id := mustWrite(t, w, proposer("s"), "a.md", proposed, true).Proposal
	mustWrite(t, w, proposer("s"), "new.md", "# New\n", false)

	// The person rewrites the commit the proposal was made on: the same
	// line in other words, and a line of b.md besides.
	gittest.WriteFiles(t, dir, map[string]string{"a.md": strings.Replace(seedA, "five", "5", 1), "b.md": "# B\n\nbuzz\n"})
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "--amend", "-m", "person: five, rewritten")
	rewritten := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	if _, err := gittest.TryGit(dir, "merge-base", "--is-ancestor", base, rewritten); err == nil {
		t.Fatal("the proposal's base is still an ancestor of the branch")
	}

	p, err := w.Proposal(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Notes) != 2 {
		t.Fatalf("show = %+v", p.Notes)
	}
	res, err := w.AcceptProposal(ctx, wiki.DecideRequest{ID: id, By: person()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gittest.TryGit(dir, "merge-base", "--is-ancestor", rewritten, "HEAD"); err != nil {
		t.Fatalf("the person's rewritten commit is no longer on the branch: %v", err)
	}
	got := gittest.Git(t, dir, "show", "HEAD:a.md")
	switch {
	case res.Commit != "" && len(res.Conflicts) == 0:
		// Merged: the proposal's line and the person's rewrite both hold,
		// the proposal's copy of the line the person rewrote did not come back.
		if !strings.Contains(got, "ONE") || !strings.Contains(got, "\n5\n") || strings.Contains(got, "cinq") {
			t.Errorf("a.md after accept =\n%s", got)
		}
	case len(res.Conflicts) > 0:
		// Not merged: said, and nothing of the person's overwritten.
		if strings.Contains(got, "cinq") || !strings.Contains(got, "\n5\n") {
			t.Errorf("a.md after a refused accept =\n%s", got)
		}
		t.Logf("conflicts: %+v", res.Conflicts)
	default:
		t.Errorf("accept = %+v: neither merged nor a conflict", res)
	}
	if b := gittest.Git(t, dir, "show", "HEAD:b.md"); !strings.Contains(b, "buzz") {
		t.Errorf("the person's b.md was lost: %q", b)
	}
	if _, err := gittest.TryGit(dir, "cat-file", "-e", "HEAD:new.md"); err != nil {
		t.Errorf("new.md was not accepted: %v", err)
	}
	if gittest.Status(t, dir) != "" {
		t.Errorf("status = %q", gittest.Status(t, dir))
	}
	gittest.Fsck(t, dir)
}

// TestAcceptProposal_hunkContextChanged accepts a hunk whose context lines
// the person changed on the branch since: the hunk merges three ways and
// the person's lines stay. A hunk whose own line the person changed is
// refused as a conflict, not written over it.
func TestAcceptProposal_hunkContextChanged(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	orig := long.String()
	changed := strings.Replace(strings.Replace(orig, "line 5\n", "LINE 5\n", 1), "line 16\n", "LINE 16\n", 1)

	t.Run("context changed", func(t *testing.T) {
		dir := seeded(t, map[string]string{"long.md": orig})
		w := openWiki(t, dir, nil)
		ctx := context.Background()
		id := mustWrite(t, w, proposer("s"), "long.md", changed, true).Proposal
		// The person changes a line of the first hunk's context, two lines
		// above its change, and one of the second's, three lines below
		// (a change on the next line conflicts, as in git).
		mine := strings.Replace(strings.Replace(orig, "line 3\n", "line three\n", 1), "line 19\n", "line nineteen\n", 1)
		gittest.Commit(t, dir, "person", map[string]string{"long.md": mine})
		res, err := w.AcceptProposal(ctx, wiki.DecideRequest{ID: id, Notes: []string{"long"}, Hunk: 1, By: person()})
		if err != nil {
			t.Fatalf("accept hunk 1: %v", err)
		}
		got := gittest.Git(t, dir, "show", "HEAD:long.md")
		want := strings.Replace(mine, "line 5\n", "LINE 5\n", 1)
		if res.Hunk == "" || res.Commit == "" || got != want {
			t.Fatalf("accept hunk 1 = %+v; long.md =\n%s\nwant\n%s", res, got, want)
		}
		res, err = w.AcceptProposal(ctx, wiki.DecideRequest{ID: id, Notes: []string{"long"}, Hunk: 1, By: person()})
		if err != nil || res.Closed != "accepted" {
			t.Fatalf("accept the last hunk = %+v, %v", res, err)
		}
		got = gittest.Git(t, dir, "show", "HEAD:long.md")
		if want = strings.Replace(want, "line 16\n", "LINE 16\n", 1); got != want {
			t.Errorf("long.md =\n%s\nwant\n%s", got, want)
		}
	})
	t.Run("the hunk's own line changed", func(t *testing.T) {
		dir := seeded(t, map[string]string{"long.md": orig})
		w := openWiki(t, dir, nil)
		ctx := context.Background()
		id := mustWrite(t, w, proposer("s"), "long.md", changed, true).Proposal
		mine := strings.Replace(orig, "line 16\n", "line sixteen\n", 1)
		head := gittest.Commit(t, dir, "person", map[string]string{"long.md": mine})
		res, err := w.AcceptProposal(ctx, wiki.DecideRequest{ID: id, Notes: []string{"long"}, Hunk: 2, By: person()})
		if err != nil && wiki.CodeOf(err) != wiki.CodeConflict {
			t.Fatalf("accept hunk 2: %v", err)
		}
		if err == nil && (len(res.Conflicts) != 1 || res.Commit != "" || !strings.Contains(res.Conflicts[0].Why, "same lines")) {
			t.Errorf("accept hunk 2 = %+v, want a conflict that says why", res)
		}
		if now := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD")); now != head {
			t.Errorf("HEAD moved to %s", now)
		}
		if got := gittest.Git(t, dir, "show", "HEAD:long.md"); got != mine {
			t.Errorf("the person's line was overwritten: long.md =\n%s", got)
		}
	})
}
