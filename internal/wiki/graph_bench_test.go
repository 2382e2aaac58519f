package wiki_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// openBenchWiki opens a wiki over dir with a link graph and, with
// withIndex, a search index brought up to date.
func openBenchWiki(b *testing.B, dir string, withIndex bool) *wiki.Wiki {
	b.Helper()
	ctx := context.Background()
	store, err := gitstore.Open(ctx, dir, gitstore.Options{})
	if err != nil {
		b.Fatal(err)
	}
	w, err := wiki.Open(ctx, deps(b, store, nil, nil), wiki.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { w.Close(ctx) })
	if withIndex {
		if err := w.Reindex(ctx, false, nil); err != nil {
			b.Fatal(err)
		}
	}
	return w
}

// BenchmarkWiki_GraphBuild opens a wiki over the generated 10,000-note
// repository and waits for its link graph: every blob read and parsed,
// every link resolved.
func BenchmarkWiki_GraphBuild(b *testing.B) {
	dir, _ := benchRepo(b)
	ctx := context.Background()
	var d durations
	for b.Loop() {
		w := openBenchWiki(b, dir, false)
		d.time(func() {
			if _, err := w.Hubs(ctx, wiki.HubsRequest{Limit: 1}); err != nil {
				b.Fatal(err)
			}
		})
		w.Close(ctx)
	}
	d.report(b)
}

// BenchmarkWiki_MoveNote500 moves a note with 500 backlinks back and forth
// in the generated 10,000-note repository: each move rewrites the 500
// linking notes and commits 501 files, with the search index and the link
// graph updated before it returns.
func BenchmarkWiki_MoveNote500(b *testing.B) {
	for _, withIndex := range []bool{false, true} {
		b.Run(fmt.Sprintf("search-index=%v", withIndex), func(b *testing.B) { benchMove500(b, withIndex) })
	}
}

func benchMove500(b *testing.B, withIndex bool) {
	ctx := context.Background()
	dir, _ := benchRepo(b)
	files := strings.Fields(gittest.Git(b, dir, "ls-files", "*.md"))
	hub := map[string]string{"hub/a/target.md": "# The hub\n\nEveryone links here.\n"}
	for i := range 500 {
		f := files[i*len(files)/500]
		p, _, _ := note.SplitFileName(f)
		rel := strings.Repeat("../", strings.Count(p, "/")) + "hub/a/target.md"
		forms := []string{"[[target]]", "[[hub/a/target|the hub]]", "[the hub](" + rel + ")", "[[target#The hub]]"}
		content := gittest.Git(b, dir, "show", "HEAD:"+f)
		hub[f] = content + "\nSee " + forms[i%len(forms)] + ".\n"
	}
	gittest.Commit(b, dir, "link the hub", hub)
	w := openBenchWiki(b, dir, withIndex)
	if _, err := w.Hubs(ctx, wiki.HubsRequest{}); err != nil { // wait for the graph
		b.Fatal(err)
	}
	paths := []string{"hub/a/target", "hub/b/moved"}
	var d durations
	i := 0
	for b.Loop() {
		from, to := paths[i%2], paths[(i+1)%2]
		var res *wiki.Result
		var err error
		d.time(func() { res, err = w.Move(ctx, wiki.MoveRequest{Path: from, NewPath: to}) })
		if err != nil {
			b.Fatal(err)
		}
		if len(res.LinksUpdated) != 500 || len(res.BrokenLinks) != 0 {
			b.Fatalf("move %d relinked %d notes and left %d", i, len(res.LinksUpdated), len(res.BrokenLinks))
		}
		i++
	}
	b.StopTimer()
	d.report(b)
	if st := gittest.Status(b, dir); st != "" {
		b.Fatalf("status not clean:\n%s", st)
	}
}
