package wiki_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// TestWiki_Write_OtherBranch checks out another branch in the checkout, as
// a person does for a moment: a mutation must fail with OTHER_BRANCH and
// change nothing, on either branch; a dry run still previews; once the
// wiki's branch is back, the mutation succeeds and its result names the
// branch.
func TestWiki_Write_OtherBranch(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "# A\n"})
	w := openWiki(t, dir, nil)
	gittest.Git(t, dir, "checkout", "-q", "-b", "tmp")
	before := captureState(t, dir)

	_, err := w.Write(ctx, wiki.WriteRequest{Path: "b", Content: "# B\n"})
	wantCode(t, err, wiki.CodeOtherBranch)
	if !strings.Contains(err.Error(), "branch tmp") || !strings.Contains(err.Error(), "writes to main") {
		t.Errorf("error %q does not name both branches", err)
	}
	captureState(t, dir).assertEqual(t, before)
	if got := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "main")); got != before.head {
		t.Errorf("main moved to %s", got)
	}
	res, err := w.Write(ctx, wiki.WriteRequest{Path: "b", Content: "# B\n", Mutation: wiki.Mutation{DryRun: true}})
	if err != nil || !res.DryRun {
		t.Fatalf("dry run on another branch: %v", err)
	}

	gittest.Git(t, dir, "checkout", "-q", "main")
	res, err = w.Write(ctx, wiki.WriteRequest{Path: "b", Content: "# B\n"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Branch != "main" {
		t.Errorf("Branch = %q, want main", res.Branch)
	}
	if got := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "main")); got != res.Commit {
		t.Errorf("main is at %s, not at the new commit %s", got, res.Commit)
	}
	if got := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "tmp")); got != before.head {
		t.Errorf("tmp moved to %s", got)
	}
	checkRepo(t, dir)
}

// TestWiki_Write_BranchGone deletes the branch the wiki writes to while
// another is checked out: the checked-out branch becomes the wiki's, as no
// change can vanish with a branch that is gone already. wiki_status says
// which branch changes go to while they are refused.
func TestWiki_Write_BranchGone(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "# A\n"})
	gittest.Git(t, dir, "checkout", "-q", "-b", "feature")
	w := openWiki(t, dir, nil)
	gittest.Git(t, dir, "checkout", "-q", "main")
	st, err := w.Status(ctx)
	if err != nil || st.WritesTo != "feature" {
		t.Fatalf("Status: WritesTo %q, %v", st.WritesTo, err)
	}
	_, err = w.Write(ctx, wiki.WriteRequest{Path: "b", Content: "# B\n"})
	wantCode(t, err, wiki.CodeOtherBranch)

	gittest.Git(t, dir, "branch", "-q", "-D", "feature")
	res, err := w.Write(ctx, wiki.WriteRequest{Path: "b", Content: "# B\n"})
	if err != nil || res.Branch != "main" {
		t.Fatalf("Write after the wiki's branch was deleted: %+v, %v", res, err)
	}
	if st, _ := w.Status(ctx); st.WritesTo != "" {
		t.Errorf("WritesTo = %q after the switch", st.WritesTo)
	}
	checkRepo(t, dir)
}
