package wiki_test

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// TestWiki_ApplyWithMove moves a note and edits it and a new note in one
// batch: one commit, the rename seen by git, links rewritten.
func TestWiki_ApplyWithMove(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{
		"drafts/plan.md": "# Plan\n\nsteps\n",
		"index.md":       "# Index\n\nSee [[drafts/plan|the plan]].\n",
	})
	w := openWikiWith(t, dir, nil, io.Discard, graph.New())
	before := commitCount(t, dir)
	res, err := w.Apply(ctx, wiki.ApplyRequest{Changes: []wiki.Change{
		{Move: &wiki.MoveRequest{Path: "drafts/plan", NewPath: "projects/plan"}},
		{Edit: &wiki.EditRequest{Path: "projects/plan", Edits: []note.Edit{{Op: note.OpAppend, Content: "- ship it"}}}},
		{Write: &wiki.WriteRequest{Path: "projects/log", Content: "Started [[projects/plan]].\n"}},
	}, Mutation: wiki.Mutation{Caller: cli}})
	if err != nil {
		t.Fatal(err)
	}
	if got := commitCount(t, dir); got != before+1 {
		t.Fatalf("%d commits, want one more than %d", got, before)
	}
	if len(res.LinksUpdated) != 1 || res.LinksUpdated[0].Path != "index" {
		t.Errorf("links updated: %+v", res.LinksUpdated)
	}
	if got := gittest.Git(t, dir, "show", "HEAD:index.md"); got != "# Index\n\nSee [[projects/plan|the plan]].\n" {
		t.Errorf("index.md = %q", got)
	}
	if got := gittest.Git(t, dir, "show", "HEAD:projects/plan.md"); got != "# Plan\n\nsteps\n- ship it\n" {
		t.Errorf("projects/plan.md = %q", got)
	}
	if st := gittest.Git(t, dir, "diff", "-M", "--name-status", "HEAD~1", "HEAD"); !strings.Contains(st, "R") {
		t.Errorf("git does not see the rename:\n%s", st)
	}
	checkRepo(t, dir)

	state := captureState(t, dir)
	_, err = w.Apply(ctx, wiki.ApplyRequest{Changes: []wiki.Change{
		{Edit: &wiki.EditRequest{Path: "index", Edits: []note.Edit{{Op: note.OpAppend, Content: "x"}}}},
		{Move: &wiki.MoveRequest{Path: "projects/log", NewPath: "log"}},
	}})
	wantCode(t, err, wiki.CodeInvalidParams)
	if !strings.Contains(wiki.Words{"move": "move_note"}.Say(err.Error()), "change 2 (move_note)") {
		t.Errorf("error %v does not name the change", err)
	}
	state.assertEqual(t, captureState(t, dir))
}
