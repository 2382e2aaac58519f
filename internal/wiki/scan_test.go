package wiki_test

import (
	"context"
	"errors"
	"io"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

// heldIndex is a search index whose updates wait until release is
// closed: the wiki sees it being built for as long as a test needs.
type heldIndex struct {
	wiki.Index
	release chan struct{}
}

func (h heldIndex) Apply(ctx context.Context, u *wiki.Update) error {
	select {
	case <-h.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	return h.Index.Apply(ctx, u)
}

// openHeld opens a wiki over dir whose search index is held in its first
// build until the returned function is called; serving sets
// Options.Serving.
func openHeld(t *testing.T, dir string, serving bool) (*wiki.Wiki, func()) {
	t.Helper()
	release := make(chan struct{})
	w := openWikiDeps(t, dir, func(o *wiki.Options) { o.Serving = serving }, io.Discard,
		func(d *wiki.Deps) { d.Index = heldIndex{d.Index, release} })
	for !w.IndexState().Building {
		time.Sleep(time.Millisecond)
	}
	var once sync.Once
	return w, func() { once.Do(func() { close(release) }) }
}

// TestWiki_Search_ScanWhileBuilding checks that a search while the index
// is built answers at once from a scan of HEAD, with the index's
// semantics: every query finds the same notes, with the same total, as
// the index finds once built. Searches the scan cannot answer (by date)
// wait for the index.
func TestWiki_Search_ScanWhileBuilding(t *testing.T) {
	ctx := context.Background()
	queries := []wiki.SearchParams{
		{Query: "milestones"},
		{Query: `"milestones"`},
		{Query: "budget -tag:finance"},
		{Query: "plan*"},
		{Query: "title:meeting"},
		{Query: "tag:project"},
		{Query: "tag:project/alpha OR folder:journal"},
		{Query: `"project plan"`},
		{Query: "path:projects/*"},
		{Query: "-folder:journal -folder:reference"},
		{Query: "how do we track the budget for the alpha project"},
		{Tags: []string{"project", "planning"}},
		{Folder: "journal", Query: "notes"},
		{Query: "status:active"},
		{Query: "links:roadmap"},
		{Query: "zebra"},
		{Query: "meeting", Sort: "title"},
	}
	for _, fixture := range []string{"basic", "obsidian"} {
		t.Run(fixture, func(t *testing.T) {
			w, release := openHeld(t, fixtureRepo(t, fixture), true)
			defer release()
			scanned := make([]*wiki.SearchResult, len(queries))
			for i, p := range queries {
				p.Limit, p.Snippets = 100, 1
				res, err := w.Search(ctx, p)
				if err != nil {
					t.Fatalf("%+v: %v", p, err)
				}
				if res.Scan == nil || res.Scan.Read != res.Scan.Notes {
					t.Fatalf("%+v: not answered from a scan that read every note: %+v", p, res.Scan)
				}
				scanned[i] = res
			}
			// A query the index cannot compile is INVALID_QUERY from a scan too.
			if _, err := w.Search(ctx, wiki.SearchParams{Query: "path:/"}); err == nil {
				t.Fatal("path:/ while the index is built: no error")
			} else {
				wantCode(t, err, wiki.CodeInvalidQuery)
			}
			// By date, a search waits for the index.
			waiting, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
			_, err := w.Search(waiting, wiki.SearchParams{Query: "modified:>=2020-01-01"})
			cancel()
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("a date search while the index is built: %v, want it to wait", err)
			}
			release()
			if err := w.CatchUp(ctx); err != nil {
				t.Fatal(err)
			}
			found := 0
			for i, p := range queries {
				p.Limit, p.Snippets = 100, 1
				res, err := w.Search(ctx, p)
				if err != nil {
					t.Fatal(err)
				}
				if res.Scan != nil {
					t.Fatalf("%+v: scanned once the index is built", p)
				}
				got, want := hitPaths(scanned[i]), hitPaths(res)
				if p.Sort == "" {
					slices.Sort(got)
					slices.Sort(want)
				}
				if !slices.Equal(got, want) || scanned[i].Total != res.Total || scanned[i].QuestionWords != res.QuestionWords {
					t.Errorf("%+v:\nscan  %d %v\nindex %d %v", p, scanned[i].Total, got, res.Total, want)
				}
				for j, h := range scanned[i].Results {
					if (len(h.Snippets) == 0) != (len(res.Results[j].Snippets) == 0) && p.Sort != "" {
						t.Errorf("%+v: %s: snippets differ", p, h.Path)
					}
				}
				found += len(want)
			}
			if found == 0 {
				t.Fatal("no query found anything: the test would not test anything")
			}
		})
	}
}

func hitPaths(res *wiki.SearchResult) []string {
	out := make([]string, len(res.Results))
	for i, h := range res.Results {
		out[i] = h.Path
	}
	return out
}

// TestWiki_Search_CommandWaitsForTheIndex checks that a wiki that is not
// serving (a one-shot command) waits for the index rather than scanning:
// the build it waits for is kept for the next command.
func TestWiki_Search_CommandWaitsForTheIndex(t *testing.T) {
	w, release := openHeld(t, fixtureRepo(t, "basic"), false)
	defer release()
	waiting, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := w.Search(waiting, wiki.SearchParams{Query: "milestones"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a command's search while the index is built: %v, want it to wait", err)
	}
}
