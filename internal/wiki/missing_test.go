package wiki_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/wiki"
)

// historyWithMedia is a checkout whose history edits and links notes,
// renames one with an edit and replaces an image: a vault a partial clone
// is made of. It returns the checkout and the commit that renamed
// keep.md to kept.md.
func historyWithMedia(t *testing.T) (dir, renamed string) {
	t.Helper()
	dir = gittest.Init(t)
	keep := "# Keep\n\n" + strings.Repeat("kept line\n", 12)
	gittest.Commit(t, dir, "one", map[string]string{
		"a.md": "# Alpha\n\nalpha text\n", "b.md": "# Beta\n\nsee [[a]]\n", "keep.md": keep,
		"media/img.png": "\x89PNG\x00one",
	})
	gittest.Commit(t, dir, "two", map[string]string{"a.md": "# Alpha\n\nalpha text\nlinks [[b]] and [[gone]]\n"})
	gittest.Git(t, dir, "mv", "keep.md", "kept.md")
	renamed = gittest.Commit(t, dir, "three", map[string]string{"kept.md": keep + "one more\n"})
	gittest.Commit(t, dir, "four", map[string]string{"media/img.png": "\x89PNG\x00two", "a.md": "# Alpha\n\nalpha text\nlinks [[b]] and [[gone]]\n![[img.png]]\n"})
	return dir, renamed
}

// TestWiki_MissingObjects serves a blobless partial clone and a checkout
// whose old blobs were removed: every read of HEAD answers as in the
// complete repository, and the history tools answer, marking what the
// missing blobs leave unknown.
func TestWiki_MissingObjects(t *testing.T) {
	ctx := context.Background()
	src, renamed := historyWithMedia(t)
	removed := gittest.Init(t)
	gittest.Git(t, removed, "pull", "-q", src, "main")
	gittest.RemoveObjects(t, removed,
		gittest.BlobAt(t, removed, "HEAD~3", "a.md"), gittest.BlobAt(t, removed, "HEAD~3", "keep.md"),
		gittest.BlobAt(t, removed, "HEAD~1", "a.md"), gittest.BlobAt(t, removed, "HEAD~1", "media/img.png"))
	for _, tc := range []struct{ name, dir string }{
		{"partial clone", gittest.PartialClone(t, src)},
		{"objects removed", removed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.dir
			missing := gittest.MissingObjects(t, dir)
			if len(missing) < 4 {
				t.Fatalf("%d missing objects, want at least 4: %v", len(missing), missing)
			}
			w := openServedWiki(t, dir)

			// Search, links and check see HEAD as it is.
			res, err := w.Search(ctx, wiki.SearchParams{Query: "alpha"})
			if err != nil || len(res.Results) != 1 || res.Results[0].Path != "a" {
				t.Fatalf("Search(alpha) = %+v, %v", res, err)
			}
			links, err := w.Links(ctx, wiki.LinksRequest{Path: "a"})
			if err != nil || links.IncomingTotal != 1 || links.OutgoingTotal != 3 {
				t.Errorf("Links(a) = %+v, %v; want 1 incoming, 3 outgoing", links, err)
			}
			check, err := w.Check(ctx, "")
			if err != nil || len(check.BrokenLinks) != 1 || check.BrokenLinks[0].Target != "gone" {
				t.Errorf("Check = %+v, %v; want the one broken link to gone", check, err)
			}

			// Note history: line counts that need a missing blob are unknown.
			h, err := w.History(ctx, wiki.HistoryRequest{Path: "a"})
			if err != nil || len(h.Revisions) != 3 {
				t.Fatalf("History(a) = %+v, %v", h, err)
			}
			unknown := 0
			for _, r := range h.Revisions {
				if r.LinesUnknown {
					unknown++
					if r.Additions != 0 || r.Deletions != 0 {
						t.Errorf("History(a) %s: unknown counts +%d -%d", r.Short, r.Additions, r.Deletions)
					}
				}
			}
			if unknown == 0 {
				t.Errorf("History(a): no revision marks its line counts unknown: %+v", h.Revisions)
			}
			k, err := w.History(ctx, wiki.HistoryRequest{Path: "kept"})
			if err != nil || len(k.Revisions) != 1 || k.Revisions[0].Commit != renamed ||
				k.Revisions[0].Change != wiki.ChangeAdded || !k.Revisions[0].RenameUnknown {
				t.Errorf("History(kept) = %+v, %v; want the addition at three marked rename unknown", k, err)
			}

			// Activity: every commit, the unknown counts marked.
			act, err := w.Activity(ctx, wiki.ActivityRequest{})
			if err != nil || act.Total != 4 {
				t.Fatalf("Activity = %+v, %v", act, err)
			}
			marked := false
			for _, c := range act.Commits {
				for _, f := range c.Files {
					marked = marked || f.LinesUnknown
					if f.LinesUnknown && !c.LinesUnknown {
						t.Errorf("Activity %s: file %s unknown, commit not marked", c.Short, f.Path)
					}
				}
			}
			if !marked {
				t.Errorf("Activity marks no file's counts unknown")
			}

			// A whole-commit diff lists the files it cannot show; a note's
			// diff across a missing version says which object is missing.
			d, err := w.Diff(ctx, wiki.DiffRequest{To: renamed})
			if err != nil {
				t.Fatalf("Diff(to three): %v", err)
			}
			if !d.LinesUnknown || len(d.Files) != 2 || strings.Contains(d.Diff, "keep.md") {
				t.Errorf("Diff(to three) = %+v; want keep.md and kept.md listed, keep.md left out of the diff", d)
			}
			_, err = w.Diff(ctx, wiki.DiffRequest{Path: "a", From: "HEAD~3", To: "HEAD~2"})
			var mo *wiki.MissingObjectError
			if !errors.As(err, &mo) || wiki.CodeOf(err) != wiki.CodeNotFound {
				t.Errorf("Diff(a, one..two) = %v, want NOT_FOUND for a missing object", err)
			}

			// Blame answers, and marks what it could not follow further.
			b, err := w.Blame(ctx, wiki.BlameRequest{Path: "a"})
			if err != nil || b.Lines != 5 || len(b.Ranges) == 0 {
				t.Fatalf("Blame(a) = %+v, %v", b, err)
			}
			origins := 0
			for _, r := range b.Ranges {
				if r.OriginUnknown {
					origins++
				}
			}
			if origins == 0 {
				t.Errorf("Blame(a) marks no range: %+v", b.Ranges)
			}

			st, err := w.Status(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if st.MissingObjects != len(missing) {
				t.Errorf("Status.MissingObjects = %d, git lists %d missing", st.MissingObjects, len(missing))
			}

			// Writing works and extends the history.
			if _, err := w.Write(ctx, wiki.WriteRequest{Path: "c", Content: "# C\n\nnew [[a]]\n", Mutation: hm}); err != nil {
				t.Fatalf("Write(c): %v", err)
			}
			if st := gittest.Status(t, dir); st != "" {
				t.Errorf("git status after the write:\n%s", st)
			}
			if h, err := w.History(ctx, wiki.HistoryRequest{Path: "c"}); err != nil || len(h.Revisions) != 1 || h.Revisions[0].LinesUnknown {
				t.Errorf("History(c) = %+v, %v", h, err)
			}
		})
	}
}

// openServedWiki opens a wiki over dir as wikid serve does: with its search
// index, history index and link graph.
func openServedWiki(tb testing.TB, dir string) *wiki.Wiki {
	tb.Helper()
	return openHistoryWikiWith(tb, dir, graph.New())
}

// TestWiki_Reindex_AttachmentLast indexes a commit whose last changed file,
// in path order, is not a note: the notes before it are indexed all the
// same, on a build and on a catch-up.
func TestWiki_Reindex_AttachmentLast(t *testing.T) {
	dir := seeded(t, map[string]string{"a.md": "# A\n\nalpha\n", "z.png": "\x89PNG\x00"})
	w := openWiki(t, dir, nil)
	if got := searchPaths(t, w, wiki.SearchParams{Query: "alpha"}); strings.Join(got, ",") != "a" {
		t.Errorf("after the build: search alpha = %v, want [a]", got)
	}
	gittest.Commit(t, dir, "two", map[string]string{"b.md": "# B\n\nbravo\n", "z.png": "\x89PNG\x00two"})
	if got := searchPaths(t, w, wiki.SearchParams{Query: "bravo"}); strings.Join(got, ",") != "b" {
		t.Errorf("after a catch-up: search bravo = %v, want [b]", got)
	}
}
