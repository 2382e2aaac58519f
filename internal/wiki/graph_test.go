package wiki_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// openGraphWiki opens a wiki with a link graph; it returns the graph too.
func openGraphWiki(tb testing.TB, dir string) (*wiki.Wiki, *graph.Graph) {
	tb.Helper()
	g := graph.New()
	return openWikiWith(tb, dir, nil, io.Discard, g), g
}

// gitFiles returns every file at HEAD, read with the git CLI.
func gitFiles(tb testing.TB, dir string) map[string]string {
	tb.Helper()
	files := make(map[string]string)
	for _, f := range strings.Split(gittest.Git(tb, dir, "ls-tree", "-r", "-z", "--name-only", "HEAD"), "\x00") {
		if f != "" {
			files[f] = gittest.Git(tb, dir, "cat-file", "blob", "HEAD:"+f)
		}
	}
	return files
}

// gitGraph builds a graph from scratch from the files at HEAD, read with
// the git CLI, resolving links the wiki way.
func gitGraph(tb testing.TB, dir string) *graph.Graph {
	tb.Helper()
	return gitGraphResolving(tb, dir, wiki.ResolveWiki)
}

// gitGraphResolving builds a graph resolving by r from scratch from the
// files at HEAD, read with the git CLI.
func gitGraphResolving(tb testing.TB, dir string, r wiki.LinkResolution) *graph.Graph {
	tb.Helper()
	var files []graph.File
	blobs := map[string][]byte{}
	for f, content := range gitFiles(tb, dir) {
		if strings.HasPrefix(f, ".") || strings.Contains(f, "/.") {
			continue
		}
		gf := graph.File{File: f, Version: wiki.BlobID([]byte(content))}
		blobs[gf.Version] = []byte(content)
		if p, _, ok := note.SplitFileName(f); ok {
			gf.Note = note.Parse(p, []byte(content))
		}
		files = append(files, gf)
	}
	g := graph.NewResolving(r)
	g.ReadBlobsWith(func(_ context.Context, id string) ([]byte, error) { return blobs[id], nil })
	g.ApplyFiles(strings.TrimSpace(gittest.Git(tb, dir, "rev-parse", "HEAD")), files, nil)
	return g
}

// sameGraph fails unless two graphs answer every query the same.
func sameGraph(tb testing.TB, got, want *graph.Graph, paths []string) {
	tb.Helper()
	if got.Commit() != want.Commit() || got.Len() != want.Len() {
		tb.Fatalf("graph at %s with %d notes, want %s with %d", got.Commit(), got.Len(), want.Commit(), want.Len())
	}
	for _, p := range paths {
		if a, b := got.Outlinks(p), want.Outlinks(p); !reflect.DeepEqual(a, b) {
			tb.Errorf("Outlinks(%s) =\n%+v\nwant\n%+v", p, a, b)
		}
		if a, b := got.Backlinks(p), want.Backlinks(p); !reflect.DeepEqual(a, b) {
			tb.Errorf("Backlinks(%s) =\n%+v\nwant\n%+v", p, a, b)
		}
	}
	for _, m := range []wiki.HubMetric{wiki.HubInDegree, wiki.HubOutDegree, wiki.HubPageRank} {
		if a, b := got.Hubs(m, "", 0), want.Hubs(m, "", 0); !reflect.DeepEqual(a, b) {
			tb.Errorf("Hubs(%s) differ", m)
		}
	}
	if a, b := got.BrokenLinks(""), want.BrokenLinks(""); !reflect.DeepEqual(a, b) {
		tb.Errorf("BrokenLinks =\n%+v\nwant\n%+v", a, b)
	}
	if a, b := got.Orphans(""), want.Orphans(""); !reflect.DeepEqual(a, b) {
		tb.Errorf("Orphans =\n%+v\nwant\n%+v", a, b)
	}
}

// notePaths lists the note paths at HEAD and a few that are gone.
func notePaths(files map[string]string, extra ...string) []string {
	paths := extra
	for f := range files {
		if p, _, ok := note.SplitFileName(f); ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	return slices.Compact(paths)
}

// TestWiki_GraphPatchedEqualsRebuilt drives 200 random writes, moves and
// deletes through the wiki, with commits by others in between, and checks
// that the graph it patched along the way equals one built from scratch.
func TestWiki_GraphPatchedEqualsRebuilt(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"index.md": "# Home\n\n[[a/x]] [[plan]]\n"})
	w, g := openGraphWiki(t, dir)
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(ss []string) string { return ss[rng.IntN(len(ss))] }
	folders := []string{"", "a/", "a/b/", "c/"}
	names := []string{"x", "y", "plan", "Plan", "z", "w"}
	targets := []string{"x", "y", "plan", "a/x", "b/plan", "/a/x", "../x", "Home", "Alias", "missing", "z#H", "w#Nope"}
	content := func() string {
		var b strings.Builder
		if rng.IntN(2) == 0 {
			fmt.Fprintf(&b, "---\ntitle: %s\naliases: [%s]\n---\n", pick([]string{"Home", "Plan", "T"}), pick([]string{"Alias", "x"}))
		}
		b.WriteString("# Title\n\n## H\n\n")
		for range rng.IntN(5) {
			if rng.IntN(3) == 0 {
				fmt.Fprintf(&b, "[m](%s.md)\n", pick([]string{"x", "../x", "b/plan", "y"}))
			} else {
				fmt.Fprintf(&b, "see [[%s]] here\n", pick(targets))
			}
		}
		return b.String()
	}
	existing := func() []string {
		var out []string
		for f := range gitFiles(t, dir) {
			if p, _, ok := note.SplitFileName(f); ok {
				out = append(out, p)
			}
		}
		slices.Sort(out)
		return out
	}
	for step := range 200 {
		notes := existing()
		var err error
		switch op := rng.IntN(10); {
		case op < 4:
			_, err = w.Write(ctx, wiki.WriteRequest{Path: pick(folders) + pick(names), Content: content(), Overwrite: true})
		case op < 6 && len(notes) > 1:
			_, err = w.Delete(ctx, wiki.DeleteRequest{Path: pick(notes), Confirm: true})
		case op < 8:
			_, err = w.Move(ctx, wiki.MoveRequest{Path: pick(notes), NewPath: pick(folders) + pick(names), LeaveLinks: rng.IntN(3) == 0})
		case op < 9:
			_, err = w.Move(ctx, wiki.MoveRequest{Path: pick([]string{"a/", "a/b/", "c/"}), NewPath: pick([]string{"c", "d", "a/e"})})
		default: // someone else commits with git
			gittest.Commit(t, dir, "by hand", map[string]string{pick(folders) + pick(names) + ".md": content()})
		}
		if err != nil && !slices.Contains([]wiki.Code{wiki.CodeAlreadyExists, wiki.CodeNotFound, wiki.CodeInvalidParams}, wiki.CodeOf(err)) {
			t.Fatalf("step %d: %v", step, err)
		}
		if step%40 == 39 {
			// a read catches the graph up with commits made by hand
			if _, err := w.Links(ctx, wiki.LinksRequest{Path: "index"}); err != nil {
				t.Fatal(err)
			}
			sameGraph(t, g, gitGraph(t, dir), notePaths(gitFiles(t, dir), "a/x", "plan", "missing"))
		}
	}
	checkRepo(t, dir)
}
