package history_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/history"
	"github.com/wikid/wikid/internal/wiki"
)

// missingRepo is a checkout whose history edits a.md three times, renames
// b.md unchanged (equal blob ids show that rename), renames keep.md with
// an edit (only the contents show that one) and adds an attachment.
type missingRepo struct {
	dir                    string
	c1, c2, c3, c4, c5, c6 string
}

func newMissingRepo(t *testing.T) *missingRepo {
	t.Helper()
	r := &missingRepo{dir: gittest.Init(t)}
	when := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	commit := func(msg string, files map[string]string, mv ...string) string {
		gittest.WriteFiles(t, r.dir, files)
		if len(mv) == 2 {
			if err := os.MkdirAll(filepath.Join(r.dir, filepath.Dir(mv[1])), 0o755); err != nil {
				t.Fatal(err)
			}
			gittest.Git(t, r.dir, "mv", mv[0], mv[1])
		}
		gittest.Git(t, r.dir, "add", "-A")
		when = when.Add(time.Hour)
		gitAt(t, r.dir, when, "commit", "-q", "-m", msg)
		return revParse(t, r.dir, "HEAD")
	}
	keep := "# Keep\n\n" + lines("kept line", 12)
	r.c1 = commit("one", map[string]string{"a.md": "# A\n\n" + lines("alpha", 6), "b.md": "# B\n\nbeta\n", "keep.md": keep})
	r.c2 = commit("two", map[string]string{"a.md": "# A\n\n" + lines("alpha", 6) + "more\n"})
	r.c3 = commit("three", nil, "b.md", "sub/b.md")
	r.c4 = commit("four", map[string]string{"keep.md": keep + "one more\n"}, "keep.md", "kept.md")
	r.c5 = commit("five", map[string]string{"a.md": "# A\n\nfirst\n" + lines("alpha", 6) + "more\n", "img.png": "\x89PNG\x00\x01"})
	r.c6 = commit("six", map[string]string{"a.md": "# A\n\nfirst\n" + lines("alpha", 6) + "more\nlast\n"})
	return r
}

// lines returns n numbered lines with a prefix.
func lines(prefix string, n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(prefix + " " + string(rune('a'+i)) + "\n")
	}
	return b.String()
}

// logOf returns a file's history, renames followed.
func logOf(t *testing.T, x *history.Index, head, file string) []wiki.Revision {
	t.Helper()
	revs, err := x.Log(context.Background(), head, file, true)
	if err != nil {
		t.Fatalf("Log(%s): %v", file, err)
	}
	return revs
}

func TestIndex_MissingObjects(t *testing.T) {
	ctx := context.Background()
	r := newMissingRepo(t)
	full, _ := openIndex(t, r.dir)
	fullHead := syncHead(t, full, r.dir)
	if n := full.MissingObjects(); n != 0 {
		t.Fatalf("a complete repository has %d missing objects", n)
	}

	t.Run("partial clone", func(t *testing.T) {
		dir := gittest.PartialClone(t, r.dir)
		missing := gittest.MissingObjects(t, dir)
		x, store := openIndex(t, dir)
		head := syncHead(t, x, dir) // fails outright without the fallback
		if head != fullHead {
			t.Fatalf("clone HEAD %s, source %s", head, fullHead)
		}
		if got := x.MissingObjects(); got != len(missing) {
			t.Errorf("MissingObjects() = %d, git rev-list --missing=print lists %d", got, len(missing))
		}
		checkAgainstFull(t, full, x, head, "a.md")
		checkAgainstFull(t, full, x, head, "sub/b.md")
		checkAgainstFull(t, full, x, head, "img.png")

		// An exact rename needs no content: sub/b.md is followed to b.md.
		b := logOf(t, x, head, "sub/b.md")
		if len(b) != 2 || b[0].Kind != wiki.ChangeRenamed || b[0].OldPath != "b.md" || b[0].LinesUnknown {
			t.Errorf("sub/b.md history = %+v, want the exact rename from b.md with known counts", b)
		}
		// The edited rename's source is missing: an addition that may be a
		// rename.
		k := logOf(t, x, head, "kept.md")
		if len(k) != 1 || k[0].ID != r.c4 || k[0].Kind != wiki.ChangeAdded || !k[0].RenameUnknown || k[0].LinesUnknown {
			t.Errorf("kept.md history = %+v, want one addition at %s marked rename unknown, with known counts", k, r.c4)
		}
		// Line counts that need a missing blob are unknown, not zero.
		a := logOf(t, x, head, "a.md")
		wantUnknown := map[string]bool{r.c6: true, r.c5: true, r.c2: true, r.c1: true}
		for _, rev := range a {
			if rev.LinesUnknown != wantUnknown[rev.ID] {
				t.Errorf("a.md at %s: LinesUnknown %v", rev.ID[:7], rev.LinesUnknown)
			}
			if rev.LinesUnknown && (rev.Additions != 0 || rev.Deletions != 0) {
				t.Errorf("a.md at %s: unknown counts are +%d -%d", rev.ID[:7], rev.Additions, rev.Deletions)
			}
		}
		page, _, _, err := x.Commits(ctx, head, wiki.CommitFilter{}, "", 10)
		if err != nil || len(page) != 6 {
			t.Fatalf("Commits: %d, %v", len(page), err)
		}
		for _, f := range page[2].Files { // four
			switch f.Path {
			case "keep.md":
				if f.Kind != wiki.ChangeDeleted || !f.LinesUnknown {
					t.Errorf("four: keep.md %+v, want a deletion with unknown counts", f)
				}
			case "kept.md":
				if f.Kind != wiki.ChangeAdded || !f.RenameUnknown {
					t.Errorf("four: kept.md %+v, want an addition marked rename unknown", f)
				}
			}
		}

		// Blame hands no line past the missing version: every line of a.md
		// stays with six, the last commit that changed it, marked.
		ranges, err := x.Blame(ctx, head, "a.md")
		if err != nil {
			t.Fatalf("Blame: %v", err)
		}
		covered := 0
		for _, rg := range ranges {
			covered += rg.Lines
			if rg.Commit.ID != r.c6 || !rg.OriginUnknown {
				t.Errorf("blame range %+v, want commit six, origin unknown", rg)
			}
		}
		if want := strings.Count(gittest.Git(t, dir, "show", "HEAD:a.md"), "\n"); covered != want {
			t.Errorf("blame covers %d lines, a.md has %d", covered, want)
		}
		// sub/b.md is the same blob all along: git's answer, nothing marked.
		ranges, err = x.Blame(ctx, head, "sub/b.md")
		if err != nil || len(ranges) != 1 || ranges[0].Commit.ID != r.c1 || ranges[0].OriginUnknown {
			t.Errorf("Blame(sub/b.md) = %+v, %v; want one range of commit one", ranges, err)
		}

		// Renames between commits falls back to equal blob ids.
		changes, err := store.Changes(ctx, r.c3, r.c4)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := x.Renames(ctx, changes); err != nil || len(got) != 0 {
			t.Errorf("Renames(three..four) = %v, %v; want none (the source is missing)", got, err)
		}
		if changes, err = store.Changes(ctx, r.c2, r.c3); err != nil {
			t.Fatal(err)
		}
		if got, err := x.Renames(ctx, changes); err != nil || got["sub/b.md"] != "b.md" {
			t.Errorf("Renames(two..three) = %v, %v; want sub/b.md from b.md", got, err)
		}

		// The index file keeps the marks and the count.
		x.Close(ctx)
		y, _ := openIndex(t, dir)
		syncHead(t, y, dir)
		if got := y.MissingObjects(); got != len(missing) {
			t.Errorf("reopened: MissingObjects() = %d, want %d", got, len(missing))
		}
		if k := logOf(t, y, head, "kept.md"); len(k) != 1 || !k[0].RenameUnknown {
			t.Errorf("reopened: kept.md history = %+v", k)
		}
	})

	t.Run("treeless clone", func(t *testing.T) {
		gittest.Git(t, r.dir, "config", "uploadpack.allowFilter", "true")
		dir := filepath.Join(t.TempDir(), "clone")
		gittest.Git(t, r.dir, "clone", "-q", "--filter=tree:0", "file://"+r.dir, dir)
		x, _ := openIndex(t, dir)
		head := syncHead(t, x, dir)
		if x.MissingObjects() == 0 {
			t.Errorf("MissingObjects() = 0 in a treeless clone")
		}
		page, total, _, err := x.Commits(ctx, head, wiki.CommitFilter{}, "", 10)
		if err != nil || total != 6 {
			t.Fatalf("Commits: %d, %v", total, err)
		}
		for _, c := range page {
			if !c.FilesUnknown || len(c.Files) != 0 {
				t.Errorf("commit %s: FilesUnknown %v, %d files; want unknown, none", c.ID[:7], c.FilesUnknown, len(c.Files))
			}
		}
		ranges, err := x.Blame(ctx, head, "a.md")
		if err != nil || len(ranges) != 1 || ranges[0].Commit.ID != head || !ranges[0].OriginUnknown {
			t.Errorf("Blame(a.md) = %+v, %v; want one range of HEAD, origin unknown", ranges, err)
		}
	})

	t.Run("objects removed", func(t *testing.T) {
		dir := gittest.Init(t)
		gittest.Git(t, dir, "pull", "-q", r.dir, "main")
		a2 := gittest.BlobAt(t, dir, r.c2, "a.md")
		keep := gittest.BlobAt(t, dir, r.c1, "keep.md")
		gittest.RemoveObjects(t, dir, a2, keep)
		x, _ := openIndex(t, dir)
		head := syncHead(t, x, dir)
		if got := x.MissingObjects(); got != 2 {
			t.Errorf("MissingObjects() = %d, want 2", got)
		}
		checkAgainstFull(t, full, x, head, "a.md")
		a := logOf(t, x, head, "a.md")
		wantUnknown := map[string]bool{r.c5: true, r.c2: true} // the two changes next to a2
		for _, rev := range a {
			if rev.LinesUnknown != wantUnknown[rev.ID] {
				t.Errorf("a.md at %s: LinesUnknown %v", rev.ID[:7], rev.LinesUnknown)
			}
		}
		// Blame goes past six and five (whose older side is readable for six
		// only) and stops at five: git's answer for six's line, five's
		// lines marked.
		got, err := x.Blame(ctx, head, "a.md")
		if err != nil {
			t.Fatalf("Blame: %v", err)
		}
		want, err := full.Blame(ctx, head, "a.md")
		if err != nil {
			t.Fatal(err)
		}
		byLine := func(rs []wiki.BlameRange) map[int]wiki.BlameRange {
			m := map[int]wiki.BlameRange{}
			for _, rg := range rs {
				for l := rg.Start; l < rg.Start+rg.Lines; l++ {
					m[l] = rg
				}
			}
			return m
		}
		g, w := byLine(got), byLine(want)
		if len(g) != len(w) {
			t.Fatalf("blame covers %d lines, git's %d", len(g), len(w))
		}
		for l, wr := range w {
			gr := g[l]
			switch {
			case wr.Commit.ID == r.c6:
				if gr.Commit.ID != r.c6 || gr.OriginUnknown {
					t.Errorf("line %d: %s unknown=%v, want six as git has it", l, gr.Commit.ID[:7], gr.OriginUnknown)
				}
			default:
				if gr.Commit.ID != r.c5 || !gr.OriginUnknown {
					t.Errorf("line %d: %s unknown=%v, want five marked (git: %s)", l, gr.Commit.ID[:7], gr.OriginUnknown, wr.Commit.ID[:7])
				}
			}
		}
	})
}

// checkAgainstFull checks a file's history in an index with missing
// objects against the complete repository's: the same commits (up to a
// rename the missing contents hide), and where the counts are known, the
// same counts.
func checkAgainstFull(t *testing.T, full, x *history.Index, head, file string) {
	t.Helper()
	want := logOf(t, full, head, file)
	got := logOf(t, x, head, file)
	if len(got) > len(want) {
		t.Fatalf("%s: %d revisions, the complete repository has %d", file, len(got), len(want))
	}
	for i, g := range got {
		w := want[i]
		if g.ID != w.ID {
			t.Errorf("%s revision %d: %s, want %s", file, i, g.ID[:7], w.ID[:7])
			continue
		}
		if !g.LinesUnknown && (g.Additions != w.Additions || g.Deletions != w.Deletions) {
			t.Errorf("%s at %s: +%d -%d, want +%d -%d", file, g.ID[:7], g.Additions, g.Deletions, w.Additions, w.Deletions)
		}
	}
	if len(got) < len(want) && !slices.ContainsFunc(got, func(r wiki.Revision) bool { return r.RenameUnknown }) {
		t.Errorf("%s: %d revisions of %d, and no rename marked unknown", file, len(got), len(want))
	}
}
