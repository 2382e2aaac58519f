package wiki_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// TestPropose_searchLinksHistory checks that a proposing session's
// search, links, history and gather_context see its proposal on top, and
// that another session sees none of it.
func TestPropose_searchLinksHistory(t *testing.T) {
	dir := proposalRepo(t)
	w := openWiki(t, dir, nil)
	ctx := context.Background()
	me := proposer("s1")
	mustWrite(t, w, me, "idea.md", "# Idea\n\nA quasar links [[a]].\n", false)
	if _, err := w.Edit(ctx, wiki.EditRequest{Path: "c", Edits: []note.Edit{{Op: note.OpReplace, Find: "see [[b]]", Content: "nothing here"}},
		Mutation: wiki.Mutation{Caller: me}}); err != nil {
		t.Fatal(err)
	}
	mine, theirs := w.ForCaller(ctx, me), ctx

	search := func(ctx context.Context, q string) []string {
		t.Helper()
		res, err := w.Search(ctx, wiki.SearchParams{Query: q})
		if err != nil {
			t.Fatalf("search %q: %v", q, err)
		}
		var out []string
		for _, h := range res.Results {
			out = append(out, h.Path)
		}
		return out
	}
	if got := search(mine, "quasar"); !slices.Equal(got, []string{"idea"}) {
		t.Errorf("the session's search for quasar: %v", got)
	}
	if got := search(theirs, "quasar"); len(got) != 0 {
		t.Errorf("another session finds the proposal: %v", got)
	}
	if got := search(mine, "see"); slices.Contains(got, "c") {
		t.Errorf("the session finds c by a word its proposal removed: %v", got)
	}
	if got := search(theirs, "see"); !slices.Contains(got, "c") {
		t.Errorf("another session does not find c at HEAD: %v", got)
	}

	incoming := func(ctx context.Context, p string) []string {
		t.Helper()
		res, err := w.Links(ctx, wiki.LinksRequest{Path: p})
		if err != nil {
			t.Fatalf("links %s: %v", p, err)
		}
		var out []string
		for _, b := range res.Incoming {
			out = append(out, b.Path)
		}
		slices.Sort(out)
		return out
	}
	if got := incoming(mine, "a"); !slices.Equal(got, []string{"idea"}) {
		t.Errorf("the session's backlinks of a: %v", got)
	}
	if got := incoming(theirs, "a"); len(got) != 0 {
		t.Errorf("another session's backlinks of a: %v", got)
	}
	if got := incoming(mine, "b"); len(got) != 0 {
		t.Errorf("the session's backlinks of b, whose link the proposal removed: %v", got)
	}
	if got := incoming(theirs, "b"); !slices.Equal(got, []string{"c"}) {
		t.Errorf("another session's backlinks of b: %v", got)
	}
	out, err := w.Links(mine, wiki.LinksRequest{Path: "idea", Direction: wiki.DirOut})
	if err != nil || !out.Exists || len(out.Outgoing) != 1 || out.Outgoing[0].Path != "a" {
		t.Errorf("the session's links of idea: %+v, %v", out, err)
	}

	hist, err := w.History(mine, wiki.HistoryRequest{Path: "idea"})
	if err != nil || len(hist.Revisions) != 1 || hist.Revisions[0].Change != wiki.ChangeAdded || !hist.Exists {
		t.Errorf("the session's history of idea: %+v, %v", hist, err)
	}
	if _, err := w.History(theirs, wiki.HistoryRequest{Path: "idea"}); wiki.CodeOf(err) != wiki.CodeNotFound {
		t.Errorf("another session's history of idea: %v", err)
	}
	hc, err := w.History(mine, wiki.HistoryRequest{Path: "c"})
	if err != nil || len(hc.Revisions) != 2 || hc.Revisions[0].Change != wiki.ChangeModified || hc.Revisions[0].Client != "claude-code/1.0" {
		t.Errorf("the session's history of c: %+v, %v", hc, err)
	}
	if hc, err := w.History(theirs, wiki.HistoryRequest{Path: "c"}); err != nil || len(hc.Revisions) != 1 {
		t.Errorf("another session's history of c: %+v, %v", hc, err)
	}

	gathered, err := w.GatherContext(mine, wiki.ContextRequest{Question: "quasar"})
	if err != nil || len(gathered.Sections) == 0 || gathered.Sections[0].Path != "idea" {
		t.Errorf("the session's gather_context: %+v, %v", gathered, err)
	}
}

// TestPropose_searchFollowsTip checks that a proposing session's search,
// answered from an index of its proposal kept per tip, follows the
// proposal when it moves: a word the session writes next is found, the
// word it replaced is not, and a decision on the proposal is seen too.
func TestPropose_searchFollowsTip(t *testing.T) {
	dir := proposalRepo(t)
	w := openWiki(t, dir, nil)
	ctx := context.Background()
	me := proposer("s1")
	id := mustWrite(t, w, me, "idea.md", "# Idea\n\nA quasar.\n", false).Proposal
	mine := w.ForCaller(ctx, me)
	found := func(q string) bool {
		t.Helper()
		res, err := w.Search(mine, wiki.SearchParams{Query: q})
		if err != nil {
			t.Fatalf("search %q: %v", q, err)
		}
		return slices.ContainsFunc(res.Results, func(h wiki.SearchHit) bool { return h.Path == "idea" })
	}
	for range 2 { // the second search reads the kept scratch index
		if !found("quasar") {
			t.Fatal("the session does not find its note")
		}
	}
	mustWrite(t, w, me, "idea.md", "# Idea\n\nA pulsar.\n", true)
	if found("quasar") {
		t.Error("the session finds the word it replaced")
	}
	if !found("pulsar") {
		t.Error("the session does not find the word it wrote next")
	}
	if _, err := w.RejectProposal(ctx, wiki.DecideRequest{ID: id}); err != nil {
		t.Fatal(err)
	}
	if found("pulsar") {
		t.Error("the session finds the note of a rejected proposal")
	}
}

// TestPropose_searchWhileProposing searches as more proposing sessions
// than the wiki keeps search indexes for, at once, while each goes on
// proposing: the indexes kept per tip are shared, replaced, evicted and
// closed under the searches (run with -race).
func TestPropose_searchWhileProposing(t *testing.T) {
	w := openWiki(t, proposalRepo(t), nil)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for s := range 10 {
		me := proposer(fmt.Sprintf("s%d", s))
		mustWrite(t, w, me, "idea.md", "# Idea\n\nword0\n", true)
		mine := w.ForCaller(ctx, me)
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 5 {
					if _, err := w.Search(mine, wiki.SearchParams{Query: "idea"}); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 5 {
				if _, err := w.Write(ctx, wiki.WriteRequest{Path: "idea.md", Content: fmt.Sprintf("# Idea\n\nword%d\n", i), Overwrite: true, Mutation: wiki.Mutation{Caller: me}}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	res, err := w.Search(w.ForCaller(ctx, proposer("s0")), wiki.SearchParams{Query: "word4"})
	if err != nil || len(res.Results) != 1 || res.Results[0].Path != "idea" {
		t.Errorf("after the writes, the session's search for its last word = %+v, %v", res, err)
	}
}
