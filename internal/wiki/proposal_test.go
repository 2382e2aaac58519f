package wiki_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// proposer is a proposing session's caller.
func proposer(session string) wiki.Caller {
	return wiki.Caller{Client: "claude-code/1.0", Session: session, Propose: true,
		Author: wiki.Identity{Name: "claude-code", Email: "claude-code@mcp.wikid"}}
}

func person() wiki.Identity { return wiki.Identity{Name: "Pat Person", Email: "pat@example.com"} }

const seedA = "# A\n\none\ntwo\nthree\nfour\nfive\n"

func proposalRepo(tb testing.TB) string {
	return seeded(tb, map[string]string{"a.md": seedA, "b.md": "# B\n\nbee\n", "c.md": "# C\n\nsee [[b]]\n"})
}

func mustWrite(tb testing.TB, w *wiki.Wiki, c wiki.Caller, path, content string, overwrite bool) *wiki.Result {
	tb.Helper()
	res, err := w.Write(context.Background(), wiki.WriteRequest{Path: path, Content: content, Overwrite: overwrite, Mutation: wiki.Mutation{Caller: c}})
	if err != nil {
		tb.Fatalf("write %s: %v", path, err)
	}
	return res
}

func readAs(tb testing.TB, w *wiki.Wiki, c wiki.Caller, path string) (string, error) {
	tb.Helper()
	res, err := w.Read(w.ForCaller(context.Background(), c), wiki.ReadRequest{Path: path})
	if err != nil {
		return "", err
	}
	return res.Content, nil
}

func TestPropose_branchUntouched(t *testing.T) {
	dir := proposalRepo(t)
	w := openWiki(t, dir, nil)
	ctx := context.Background()
	before := captureState(t, dir)
	me := proposer("s1")

	res := mustWrite(t, w, me, "new.md", "# New\n\nlinks [[a]]\n", false)
	if res.Proposal == "" || res.Branch != "" {
		t.Fatalf("result = proposal %q branch %q, want a proposal", res.Proposal, res.Branch)
	}
	if !strings.Contains(strings.Join(res.Warnings, "\n"), "wikid proposals show "+res.Proposal) {
		t.Errorf("warnings do not say how to review: %q", res.Warnings)
	}
	if _, err := w.Edit(ctx, wiki.EditRequest{Path: "a", Edits: []note.Edit{{Op: note.OpReplace, Find: "two", Content: "TWO"}}, Mutation: wiki.Mutation{Caller: me}}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Delete(ctx, wiki.DeleteRequest{Path: "b", Confirm: true, Mutation: wiki.Mutation{Caller: me}}); err != nil {
		t.Fatal(err)
	}
	res2 := mustWrite(t, w, me, "new.md", "# New\n\nlinks [[a]] again\n", true)
	if res2.Proposal != res.Proposal {
		t.Errorf("second change went to proposal %q, want the session's %q", res2.Proposal, res.Proposal)
	}

	after := captureState(t, dir)
	if after.head != before.head || after.status != before.status || after.index != before.index {
		t.Errorf("the branch, index or status changed: %+v -> %+v", before, after)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.md")); !os.IsNotExist(err) {
		t.Errorf("new.md is in the checkout: %v", err)
	}
	gittest.Fsck(t, dir)
	log := gittest.Git(t, dir, "log", "--format=%s|%an", "main..refs/wikid/proposals/"+res.Proposal)
	if n := strings.Count(log, "\n"); n != 4 || !strings.Contains(log, "|claude-code") {
		t.Errorf("git log main..proposal =\n%s\nwant 4 commits by claude-code", log)
	}

	// The session reads its own proposal; another session and the person do not.
	if got, err := readAs(t, w, me, "new"); err != nil || !strings.Contains(got, "again") {
		t.Errorf("proposer reads new = %q, %v", got, err)
	}
	if got, _ := readAs(t, w, me, "a"); !strings.Contains(got, "TWO") {
		t.Errorf("proposer reads a = %q, want its edit", got)
	}
	if _, err := readAs(t, w, me, "b"); wiki.CodeOf(err) != wiki.CodeNotFound {
		t.Errorf("proposer reads deleted b: %v, want NOT_FOUND", err)
	}
	list, err := w.List(w.ForCaller(ctx, me), wiki.ListRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, n := range list.Notes {
		paths = append(paths, n.Path)
	}
	if got := strings.Join(paths, ","); got != "a,c,new" {
		t.Errorf("proposer lists %s, want a,c,new", got)
	}
	other := proposer("s2")
	if _, err := readAs(t, w, other, "new"); wiki.CodeOf(err) != wiki.CodeNotFound {
		t.Errorf("another session reads new: %v, want NOT_FOUND", err)
	}
	if got, _ := readAs(t, w, wiki.Caller{Client: "cli"}, "a"); strings.Contains(got, "TWO") {
		t.Errorf("the person reads the proposal's edit of a")
	}
}

func TestAcceptProposal(t *testing.T) {
	dir := proposalRepo(t)
	w := openWiki(t, dir, nil)
	ctx := context.Background()
	me := proposer("s1")
	id := mustWrite(t, w, me, "new.md", "# New\n", false).Proposal
	mustWrite(t, w, me, "a.md", strings.Replace(seedA, "two", "TWO", 1), true)
	// The person changes another line of a meanwhile: a three-way merge.
	gittest.Commit(t, dir, "person", map[string]string{"a.md": strings.Replace(seedA, "five", "FIVE", 1)})

	p, err := w.Proposal(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Notes) != 2 || p.Notes[0].File != "a.md" || p.Notes[0].State != "ready" || p.Notes[0].Additions != 1 {
		t.Fatalf("show = %+v", p.Notes)
	}
	res, err := w.AcceptProposal(ctx, wiki.DecideRequest{ID: id, Notes: []string{"a"}, Comment: "good catch", By: person()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Commit == "" || res.Open != 1 || res.Closed != "" {
		t.Fatalf("accept = %+v", res)
	}
	got := gittest.Git(t, dir, "show", "HEAD:a.md")
	if !strings.Contains(got, "TWO") || !strings.Contains(got, "FIVE") {
		t.Errorf("a.md on the branch = %q, want both changes", got)
	}
	who := gittest.Git(t, dir, "log", "-1", "--format=%an|%cn|%B")
	if !strings.HasPrefix(who, "claude-code|Pat Person|") || !strings.Contains(who, "good catch") {
		t.Errorf("accept commit = %q", who)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.md")); !os.IsNotExist(err) {
		t.Errorf("new.md, not accepted yet, is in the checkout")
	}
	if gittest.Status(t, dir) != "" {
		t.Errorf("status = %q", gittest.Status(t, dir))
	}
	// The rest is rejected: the proposal closes, partly accepted, and is kept.
	rej, err := w.RejectProposal(ctx, wiki.DecideRequest{ID: id, By: person(), Comment: "not now"})
	if err != nil {
		t.Fatal(err)
	}
	if rej.Closed != "partly accepted" || strings.Join(rej.Rejected, ",") != "new.md" {
		t.Errorf("reject = %+v", rej)
	}
	if out, _ := gittest.TryGit(dir, "rev-parse", "--verify", "-q", "refs/wikid/proposals/"+id); strings.TrimSpace(out) != "" {
		t.Errorf("the open ref remains: %s", out)
	}
	closed := gittest.Git(t, dir, "log", "-1", "--format=%an|%B", "refs/wikid/proposals-closed/"+id)
	if !strings.Contains(closed, "Wiki-Closed: partly accepted") || !strings.HasPrefix(closed, "Pat Person|") {
		t.Errorf("closed ref's commit = %q", closed)
	}
	list, err := w.Proposals(ctx, true)
	if err != nil || len(list) != 1 || list[0].Closed != "partly accepted" {
		t.Errorf("proposals = %+v, %v", list, err)
	}
	gittest.Fsck(t, dir)
}

func TestAcceptProposal_conflicts(t *testing.T) {
	t.Run("same lines changed by the person", func(t *testing.T) {
		dir := proposalRepo(t)
		w := openWiki(t, dir, nil)
		id := mustWrite(t, w, proposer("s"), "a.md", strings.Replace(seedA, "two", "TWO", 1), true).Proposal
		head := gittest.Commit(t, dir, "person", map[string]string{"a.md": strings.Replace(seedA, "two", "deux", 1)})
		res, err := w.AcceptProposal(context.Background(), wiki.DecideRequest{ID: id, By: person()})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Conflicts) != 1 || res.Commit != "" || res.Open != 1 {
			t.Errorf("accept = %+v, want one conflict, no commit", res)
		}
		if now := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD")); now != head {
			t.Errorf("HEAD moved to %s", now)
		}
		if got := gittest.Git(t, dir, "show", "HEAD:a.md"); !strings.Contains(got, "deux") {
			t.Errorf("the person's line was overwritten: %q", got)
		}
	})
	t.Run("note deleted by the person", func(t *testing.T) {
		dir := proposalRepo(t)
		w := openWiki(t, dir, nil)
		id := mustWrite(t, w, proposer("s"), "b.md", "# B\n\nbuzz\n", true).Proposal
		gittest.Git(t, dir, "rm", "-q", "b.md")
		gittest.Git(t, dir, "commit", "-qm", "drop b")
		p, err := w.Proposal(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Notes) != 1 || p.Notes[0].State != "conflict" || !strings.Contains(p.Notes[0].Why, "deleted") {
			t.Errorf("show = %+v", p.Notes)
		}
		res, err := w.AcceptProposal(context.Background(), wiki.DecideRequest{ID: id, By: person()})
		if err != nil || len(res.Conflicts) != 1 || res.Commit != "" {
			t.Errorf("accept = %+v, %v", res, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "b.md")); !os.IsNotExist(err) {
			t.Errorf("b.md came back")
		}
	})
	t.Run("two proposals change the same note", func(t *testing.T) {
		dir := proposalRepo(t)
		w := openWiki(t, dir, nil)
		ctx := context.Background()
		one := mustWrite(t, w, proposer("s1"), "a.md", strings.Replace(seedA, "one", "ONE", 1), true).Proposal
		two := mustWrite(t, w, proposer("s2"), "a.md", strings.Replace(seedA, "five", "FIVE", 1), true).Proposal
		if one == two {
			t.Fatalf("two sessions share proposal %s", one)
		}
		for _, id := range []string{one, two} {
			if res, err := w.AcceptProposal(ctx, wiki.DecideRequest{ID: id, By: person()}); err != nil || res.Commit == "" || res.Closed != "accepted" {
				t.Fatalf("accept %s = %+v, %v", id, res, err)
			}
		}
		got := gittest.Git(t, dir, "show", "HEAD:a.md")
		if !strings.Contains(got, "ONE") || !strings.Contains(got, "FIVE") {
			t.Errorf("a.md = %q, want both proposals", got)
		}
	})
	t.Run("a move in one proposal, an edit in another", func(t *testing.T) {
		dir := proposalRepo(t)
		w := openWiki(t, dir, nil)
		ctx := context.Background()
		mover, err := w.Move(ctx, wiki.MoveRequest{Path: "b", NewPath: "bee", Mutation: wiki.Mutation{Caller: proposer("m")}})
		if err != nil {
			t.Fatal(err)
		}
		editor := mustWrite(t, w, proposer("e"), "b.md", "# B\n\nbuzz\n", true).Proposal
		if res, err := w.AcceptProposal(ctx, wiki.DecideRequest{ID: mover.Proposal, By: person()}); err != nil || res.Closed != "accepted" {
			t.Fatalf("accept the move = %+v, %v", res, err)
		}
		if got := gittest.Git(t, dir, "show", "HEAD:bee.md"); !strings.Contains(got, "bee") {
			t.Errorf("bee.md = %q", got)
		}
		// The edit of b.md now meets a note the branch deleted: reported, not written.
		res, err := w.AcceptProposal(ctx, wiki.DecideRequest{ID: editor, By: person()})
		if err != nil || len(res.Conflicts) != 1 || res.Commit != "" {
			t.Errorf("accept the edit = %+v, %v", res, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "b.md")); !os.IsNotExist(err) {
			t.Errorf("b.md came back")
		}
	})
}

func TestAcceptProposal_repeatable(t *testing.T) {
	dir := proposalRepo(t)
	w := openWiki(t, dir, nil)
	ctx := context.Background()
	id := mustWrite(t, w, proposer("s"), "a.md", strings.Replace(seedA, "two", "TWO", 1), true).Proposal
	// An accept killed after its commit landed and before its decision was
	// recorded: the branch holds the change, the proposal is still open.
	gittest.Commit(t, dir, "accept (killed)", map[string]string{"a.md": strings.Replace(seedA, "two", "TWO", 1)})
	head := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	res, err := w.AcceptProposal(ctx, wiki.DecideRequest{ID: id, By: person()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Commit != "" || res.Closed != "accepted" {
		t.Errorf("repeated accept = %+v, want no commit and the proposal closed", res)
	}
	if now := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD")); now != head {
		t.Errorf("the repeated accept committed again")
	}
}

func TestProposal_refDeletedByHand(t *testing.T) {
	dir := proposalRepo(t)
	w := openWiki(t, dir, nil)
	ctx := context.Background()
	me := proposer("s")
	id := mustWrite(t, w, me, "new.md", "# New\n", false).Proposal
	gittest.Git(t, dir, "update-ref", "-d", "refs/wikid/proposals/"+id)
	if _, err := w.Proposal(ctx, id); wiki.CodeOf(err) != wiki.CodeNotFound {
		t.Errorf("show a deleted proposal: %v, want NOT_FOUND", err)
	}
	if _, err := w.AcceptProposal(ctx, wiki.DecideRequest{ID: id}); wiki.CodeOf(err) != wiki.CodeNotFound {
		t.Errorf("accept a deleted proposal: %v, want NOT_FOUND", err)
	}
	if _, err := readAs(t, w, me, "new"); wiki.CodeOf(err) != wiki.CodeNotFound {
		t.Errorf("the session still reads its deleted proposal: %v", err)
	}
	// The session's next change starts the proposal again on the branch.
	res := mustWrite(t, w, me, "new2.md", "# New 2\n", false)
	if res.Proposal != id {
		t.Errorf("proposal id changed: %s", res.Proposal)
	}
	if log := gittest.Git(t, dir, "log", "--format=%s", "main..refs/wikid/proposals/"+id); strings.Count(log, "\n") != 1 {
		t.Errorf("log = %q, want one commit", log)
	}
}

func TestProposal_readOnly(t *testing.T) {
	dir := proposalRepo(t)
	w := openWiki(t, dir, nil)
	id := mustWrite(t, w, proposer("s"), "new.md", "# New\n", false).Proposal
	w.Close(context.Background())
	ro := openWiki(t, dir, func(o *wiki.Options) { o.ReadOnly = true })
	ctx := context.Background()
	if _, err := ro.Write(ctx, wiki.WriteRequest{Path: "x.md", Content: "x", Mutation: wiki.Mutation{Caller: proposer("r")}}); wiki.CodeOf(err) != wiki.CodeReadOnly {
		t.Errorf("propose read-only: %v", err)
	}
	if _, err := ro.AcceptProposal(ctx, wiki.DecideRequest{ID: id}); wiki.CodeOf(err) != wiki.CodeReadOnly {
		t.Errorf("accept read-only: %v", err)
	}
	if _, err := ro.RejectProposal(ctx, wiki.DecideRequest{ID: id}); wiki.CodeOf(err) != wiki.CodeReadOnly {
		t.Errorf("reject read-only: %v", err)
	}
	if p, err := ro.Proposal(ctx, id); err != nil || len(p.Notes) != 1 {
		t.Errorf("show read-only = %v, %v", p, err)
	}
}

func TestAcceptProposal_localChanges(t *testing.T) {
	dir := proposalRepo(t)
	w := openWiki(t, dir, nil)
	id := mustWrite(t, w, proposer("s"), "a.md", strings.Replace(seedA, "two", "TWO", 1), true).Proposal
	os.WriteFile(filepath.Join(dir, "a.md"), []byte(seedA+"unsaved\n"), 0o644)
	_, err := w.AcceptProposal(context.Background(), wiki.DecideRequest{ID: id, By: person()})
	if wiki.CodeOf(err) != wiki.CodeLocalChanges {
		t.Fatalf("accept over uncommitted edits: %v, want LOCAL_CHANGES", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.md")); !strings.Contains(string(b), "unsaved") {
		t.Errorf("the person's edit was overwritten")
	}
	if p, err := w.Proposal(context.Background(), id); err != nil || len(p.Notes) != 1 {
		t.Errorf("the proposal is not open any more: %v, %v", p, err)
	}
}

func TestAcceptProposal_closeInterrupted(t *testing.T) {
	dir := proposalRepo(t)
	w := openWiki(t, dir, nil)
	ctx := context.Background()
	id := mustWrite(t, w, proposer("s"), "a.md", strings.Replace(seedA, "two", "TWO", 1), true).Proposal
	tip := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "refs/wikid/proposals/"+id))
	if _, err := w.AcceptProposal(ctx, wiki.DecideRequest{ID: id, By: person()}); err != nil {
		t.Fatal(err)
	}
	// Killed after the closed ref was written, before the open one went.
	gittest.Git(t, dir, "update-ref", "refs/wikid/proposals/"+id, tip)
	head := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	_, err := w.AcceptProposal(ctx, wiki.DecideRequest{ID: id, By: person()})
	if wiki.CodeOf(err) != wiki.CodeNotFound || !strings.Contains(err.Error(), "closed") {
		t.Errorf("accept again: %v, want NOT_FOUND, closed", err)
	}
	if out, _ := gittest.TryGit(dir, "rev-parse", "--verify", "-q", "refs/wikid/proposals/"+id); strings.TrimSpace(out) != "" {
		t.Errorf("the open ref remains")
	}
	if now := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD")); now != head {
		t.Errorf("HEAD moved")
	}
}

func TestPropose_afterClose(t *testing.T) {
	dir := proposalRepo(t)
	w := openWiki(t, dir, nil)
	ctx := context.Background()
	me := proposer("s")
	first := mustWrite(t, w, me, "new.md", "# New\n", false).Proposal
	if _, err := w.AcceptProposal(ctx, wiki.DecideRequest{ID: first, By: person()}); err != nil {
		t.Fatal(err)
	}
	second := mustWrite(t, w, me, "new.md", "# New\n\nmore\n", true).Proposal
	if second == first {
		t.Fatalf("the session wrote on its closed proposal %s", first)
	}
	if res, err := w.AcceptProposal(ctx, wiki.DecideRequest{ID: second, By: person()}); err != nil || res.Closed != "accepted" {
		t.Fatalf("accept the second proposal = %+v, %v", res, err)
	}
	if got := gittest.Git(t, dir, "show", "HEAD:new.md"); !strings.Contains(got, "more") {
		t.Errorf("new.md = %q", got)
	}
}

func TestAcceptProposal_hunk(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	dir := seeded(t, map[string]string{"long.md": long.String()})
	w := openWiki(t, dir, nil)
	ctx := context.Background()
	changed := strings.Replace(strings.Replace(long.String(), "line 2\n", "LINE 2\n", 1), "line 19\n", "LINE 19\n", 1)
	id := mustWrite(t, w, proposer("s"), "long.md", changed, true).Proposal
	// The person edits the middle meanwhile: hunks count against the branch now.
	gittest.Commit(t, dir, "person", map[string]string{"long.md": strings.Replace(long.String(), "line 10\n", "line ten\n", 1)})
	if _, err := w.AcceptProposal(ctx, wiki.DecideRequest{ID: id, Notes: []string{"long"}, Hunk: 3}); wiki.CodeOf(err) != wiki.CodeNotFound {
		t.Errorf("hunk 3 of 2: %v, want NOT_FOUND", err)
	}
	res, err := w.AcceptProposal(ctx, wiki.DecideRequest{ID: id, Notes: []string{"long"}, Hunk: 2, By: person()})
	if err != nil {
		t.Fatal(err)
	}
	got := gittest.Git(t, dir, "show", "HEAD:long.md")
	if res.Hunk == "" || res.Open != 1 || !strings.Contains(got, "LINE 19") || strings.Contains(got, "LINE 2\n") || !strings.Contains(got, "line ten") {
		t.Fatalf("accept hunk 2 = %+v; long.md =\n%s", res, got)
	}
	p, err := w.Proposal(ctx, id)
	if err != nil || len(p.Notes) != 1 || p.Notes[0].Additions != 1 {
		t.Fatalf("after one hunk, show = %+v, %v", p, err)
	}
	res, err = w.AcceptProposal(ctx, wiki.DecideRequest{ID: id, Notes: []string{"long"}, Hunk: 1, By: person()})
	if err != nil || res.Closed != "accepted" {
		t.Fatalf("accept the last hunk = %+v, %v", res, err)
	}
	got = gittest.Git(t, dir, "show", "HEAD:long.md")
	if !strings.Contains(got, "LINE 2\n") || !strings.Contains(got, "LINE 19") || !strings.Contains(got, "line ten") {
		t.Errorf("long.md =\n%s", got)
	}
}

// TestPropose_reviewURL checks that once the daemon knows where its review
// pages are served, a proposed change's answer names the proposal's page.
func TestPropose_reviewURL(t *testing.T) {
	w := openWiki(t, proposalRepo(t), nil)
	w.SetReviewURL("http://127.0.0.1:8765/")
	res := mustWrite(t, w, proposer("s1"), "new.md", "# New\n", false)
	want := "http://127.0.0.1:8765/proposals/" + res.Proposal
	if !strings.Contains(strings.Join(res.Warnings, "\n"), want) {
		t.Errorf("warnings do not name %s: %q", want, res.Warnings)
	}
}
