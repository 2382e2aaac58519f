package wiki_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// fileLog returns the commit ids and committer times of `git log --follow
// -- file`, newest first.
func fileLog(tb testing.TB, dir, file string) ([]string, []time.Time) {
	tb.Helper()
	var ids []string
	var times []time.Time
	for _, line := range strings.Split(strings.TrimSpace(gittest.Git(tb, dir, "log", "--follow", "--format=%H %cI", "--", file)), "\n") {
		id, when, _ := strings.Cut(line, " ")
		t, err := time.Parse(time.RFC3339, when)
		if err != nil {
			tb.Fatal(err)
		}
		ids, times = append(ids, id), append(times, t)
	}
	return ids, times
}

// datesRepo is a checkout whose root commit holds plain.md (never changed
// again) and dated.md (dates in its frontmatter), and whose second commit
// changes other.md only.
func datesRepo(tb testing.TB) string {
	tb.Helper()
	dir := gittest.Init(tb)
	gittest.Commit(tb, dir, "root", map[string]string{
		"plain.md": "# Plain\n\nno dates here\n",
		"dated.md": "---\ntitle: Dated\ncreated: 2020-01-02\nmodified: 2020-02-03\n---\nbody\n",
		"other.md": "# Other\n",
	})
	gittest.Commit(tb, dir, "second", map[string]string{"other.md": "# Other\n\nchanged\n"})
	return dir
}

// syncedHistoryWiki is openHistoryWiki once its history index has caught
// up with HEAD: until then reads leave git's dates out.
func syncedHistoryWiki(tb testing.TB, dir string) *wiki.Wiki {
	tb.Helper()
	w := openHistoryWiki(tb, dir)
	if _, err := w.RecentChanges(context.Background(), wiki.RecentRequest{}); err != nil {
		tb.Fatal(err)
	}
	return w
}

func sameTime(got *time.Time, want time.Time) bool { return got != nil && got.Equal(want) }

func TestWiki_Dates(t *testing.T) {
	ctx := context.Background()
	dir := datesRepo(t)
	plainLog, plainTimes := fileLog(t, dir, "plain.md")
	datedLog, datedTimes := fileLog(t, dir, "dated.md")
	otherLog, otherTimes := fileLog(t, dir, "other.md")
	if len(plainLog) != 1 || plainLog[0] == strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD")) {
		t.Fatalf("fixture: plain.md's history %v", plainLog)
	}
	fmCreated := time.Date(2020, 1, 2, 0, 0, 0, 0, time.UTC)
	fmModified := time.Date(2020, 2, 3, 0, 0, 0, 0, time.UTC)
	w := syncedHistoryWiki(t, dir)
	if err := w.Reindex(ctx, false, nil); err != nil {
		t.Fatal(err)
	}

	t.Run("read gives the last change and git's dates", func(t *testing.T) {
		r, err := w.Read(ctx, wiki.ReadRequest{Path: "plain"})
		if err != nil {
			t.Fatal(err)
		}
		if r.Commit != plainLog[0] {
			t.Errorf("commit %s, want the root commit %s (git log -- plain.md)", r.Commit, plainLog[0])
		}
		if !sameTime(r.Created, plainTimes[0]) || !sameTime(r.Modified, plainTimes[0]) ||
			r.CreatedSource != wiki.DateFromGit || r.ModifiedSource != wiki.DateFromGit {
			t.Errorf("dates %+v, want %s from git", r.Dates, plainTimes[0])
		}
		if r.GitCreated != nil || r.GitModified != nil || len(r.Warnings) > 0 {
			t.Errorf("git dates %v %v, warnings %v", r.GitCreated, r.GitModified, r.Warnings)
		}
	})

	t.Run("frontmatter dates win, git's next to them", func(t *testing.T) {
		r, err := w.Read(ctx, wiki.ReadRequest{Path: "dated", MetadataOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if !sameTime(r.Created, fmCreated) || !sameTime(r.Modified, fmModified) ||
			r.CreatedSource != wiki.DateFromFrontmatter || r.ModifiedSource != wiki.DateFromFrontmatter {
			t.Errorf("dates %+v, want the frontmatter's", r.Dates)
		}
		if !sameTime(r.GitCreated, datedTimes[0]) || !sameTime(r.GitModified, datedTimes[0]) || r.Commit != datedLog[0] {
			t.Errorf("git dates %v %v, commit %s; want %s, %s", r.GitCreated, r.GitModified, r.Commit, datedTimes[0], datedLog[0])
		}
	})

	t.Run("read at a version", func(t *testing.T) {
		r, err := w.Read(ctx, wiki.ReadRequest{Path: "other", Version: "HEAD~1"})
		if err != nil {
			t.Fatal(err)
		}
		if r.Commit != otherLog[1] || !sameTime(r.Modified, otherTimes[1]) {
			t.Errorf("commit %s modified %v, want %s at %s", r.Commit, r.Modified, otherLog[1], otherTimes[1])
		}
	})

	checkList := func(t *testing.T, w *wiki.Wiki) {
		t.Helper()
		res, err := w.List(ctx, wiki.ListRequest{Recursive: true})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]wiki.NoteSummary{}
		for _, n := range res.Notes {
			got[n.Path] = n
		}
		if p := got["plain"]; !sameTime(p.Created, plainTimes[0]) || !sameTime(p.Modified, plainTimes[0]) || p.ModifiedSource != wiki.DateFromGit {
			t.Errorf("plain: %+v, want %s from git", p.Dates, plainTimes[0])
		}
		if d := got["dated"]; !sameTime(d.Modified, fmModified) || d.ModifiedSource != wiki.DateFromFrontmatter {
			t.Errorf("dated: %+v", d.Dates)
		}
		if o := got["other"]; !sameTime(o.Modified, otherTimes[0]) || !sameTime(o.Created, otherTimes[1]) {
			t.Errorf("other: %+v, want created %s modified %s", o.Dates, otherTimes[1], otherTimes[0])
		}
		sorted, err := w.List(ctx, wiki.ListRequest{Sort: wiki.SortModified})
		if err != nil {
			t.Fatal(err)
		}
		var order []string
		for _, n := range sorted.Notes {
			order = append(order, n.Path)
		}
		if strings.Join(order, " ") != "other plain dated" {
			t.Errorf("by modified: %v, want other plain dated", order)
		}
	}
	t.Run("list", func(t *testing.T) { checkList(t, w) })

	t.Run("search", func(t *testing.T) {
		res, err := w.Search(ctx, wiki.SearchParams{Query: "plain OR dated"})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Results {
			switch h.Path {
			case "plain":
				if !sameTime(h.Created, plainTimes[0]) || !h.Modified.Equal(plainTimes[0]) ||
					h.CreatedSource != wiki.DateFromGit || h.ModifiedSource != wiki.DateFromGit {
					t.Errorf("plain: %+v", h)
				}
			case "dated":
				if !sameTime(h.Created, fmCreated) || h.CreatedSource != wiki.DateFromFrontmatter || h.ModifiedSource != wiki.DateFromFrontmatter {
					t.Errorf("dated: %+v", h)
				}
			}
		}
		if len(res.Results) != 2 {
			t.Errorf("%d hits", len(res.Results))
		}
	})

	t.Run("recent changes", func(t *testing.T) {
		res, err := w.RecentChanges(ctx, wiki.RecentRequest{})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range res.Results {
			switch n.Path {
			case "plain":
				if n.Commit != plainLog[0] || !sameTime(n.Created, plainTimes[0]) || n.CreatedSource != wiki.DateFromGit || n.ModifiedSource != wiki.DateFromGit {
					t.Errorf("plain: %+v", n)
				}
			case "dated":
				if !sameTime(n.Created, fmCreated) || n.CreatedSource != wiki.DateFromFrontmatter || !n.Modified.Equal(datedTimes[0]) {
					t.Errorf("dated: %+v", n)
				}
			}
		}
	})

	// A wiki opened again finds its search index at HEAD: the dates must
	// not depend on the index's walk of the history.
	t.Run("list after reopening", func(t *testing.T) {
		w.Close(ctx)
		w2 := syncedHistoryWiki(t, dir)
		if err := w2.Reindex(ctx, false, nil); err != nil {
			t.Fatal(err)
		}
		checkList(t, w2)
	})
}
