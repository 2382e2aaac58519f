package wiki_test

import (
	"context"
	"io"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// heldHistory is a history index whose updates wait until release is
// closed.
type heldHistory struct {
	wiki.History
	release chan struct{}
}

func (h heldHistory) Apply(ctx context.Context, u *wiki.Update) error {
	select {
	case <-h.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	return h.History.Apply(ctx, u)
}

// commitAt commits files in dir with the git CLI as of when, author and
// committer.
func commitAt(tb testing.TB, dir string, when time.Time, files map[string]string) {
	tb.Helper()
	gittest.WriteFiles(tb, dir, files)
	gittest.Git(tb, dir, "add", "-A")
	cmd := exec.Command("git", "commit", "-q", "-m", "at "+when.Format(time.DateOnly))
	cmd.Dir = dir
	stamp := when.Format(time.RFC3339)
	cmd.Env = append(os.Environ(), gittest.Env()...)
	cmd.Env = append(cmd.Env, "GIT_AUTHOR_DATE="+stamp, "GIT_COMMITTER_DATE="+stamp)
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("git commit: %v\n%s", err, out)
	}
}

// TestWiki_Search_GitDates checks searches by date over notes dated by
// git and by their frontmatter, mixed: the search index is built without
// git's dates (it does not wait for the history index), and a search by
// date takes them from the history index, waiting for it.
func TestWiki_Search_GitDates(t *testing.T) {
	ctx := context.Background()
	dir := gittest.Init(t)
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 12, 0, 0, 0, time.UTC) }
	commitAt(t, dir, day(2021, 1, 1), map[string]string{
		"a.md": "# A\n\nword\n",
		"b.md": "# B\n\nword\n",
		"c.md": "---\ncreated: 2019-01-01\nmodified: 2019-05-05\n---\nword\n",
	})
	commitAt(t, dir, day(2022, 6, 1), map[string]string{"b.md": "# B\n\nword, changed\n"})
	commitAt(t, dir, day(2023, 3, 1), map[string]string{"d.md": "---\ncreated: 2024-01-01\n---\nword\n"})
	// Dates as git and the frontmatter give them: modified a 2021, b
	// 2022, c 2019 (frontmatter), d 2023; created a and b 2021, c 2019
	// and d 2024 (frontmatter).

	release := make(chan struct{})
	w := openWikiDeps(t, dir, nil, io.Discard, func(d *wiki.Deps) { d.History = heldHistory{d.History, release} })
	building, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := w.Reindex(building, false, nil); err != nil {
		t.Fatalf("the search index, built while the history index waits: %v", err)
	}
	// A search by words answers; one by date waits for the history.
	if res, err := w.Search(ctx, wiki.SearchParams{Query: "word"}); err != nil || res.Total != 4 {
		t.Fatalf("search by words while the history waits: %v %v", res, err)
	}
	waiting, stop := context.WithTimeout(ctx, 50*time.Millisecond)
	_, err := w.Search(waiting, wiki.SearchParams{Query: "modified:>=2022"})
	stop()
	if err == nil {
		t.Fatal("a search by date answered before git's dates were known")
	}
	close(release)

	for _, tc := range []struct {
		p    wiki.SearchParams
		want []string
	}{
		{wiki.SearchParams{Query: "modified:>=2022-01-01"}, []string{"b", "d"}},
		{wiki.SearchParams{Query: "modified:<2021-06-01"}, []string{"a", "c"}},
		{wiki.SearchParams{Query: "-modified:>=2022-01-01 word"}, []string{"a", "c"}},
		{wiki.SearchParams{Query: "created:2024"}, []string{"d"}},
		{wiki.SearchParams{Query: "created:<2020"}, []string{"c"}},
		{wiki.SearchParams{Query: "created:2021 OR modified:2019"}, []string{"a", "b", "c"}},
		{wiki.SearchParams{ModifiedSince: day(2021, 6, 1)}, []string{"b", "d"}},
		{wiki.SearchParams{Query: "word", Sort: "modified"}, []string{"d", "b", "a", "c"}},
		{wiki.SearchParams{Sort: "created"}, []string{"d", "a", "b", "c"}},
		{wiki.SearchParams{Query: "modified:>2020", Sort: "modified"}, []string{"d", "b", "a"}},
	} {
		res, err := w.Search(ctx, tc.p)
		if err != nil {
			t.Fatalf("%+v: %v", tc.p, err)
		}
		got := hitPaths(res)
		if tc.p.Sort == "" {
			slices.Sort(got)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%+v: %v, want %v", tc.p, got, tc.want)
		}
		if tc.p.Sort == "" {
			continue
		}
		// Page by page, one hit a page, the same order.
		var paged []string
		p := tc.p
		p.Limit = 1
		for {
			res, err := w.Search(ctx, p)
			if err != nil {
				t.Fatalf("%+v: %v", p, err)
			}
			paged = append(paged, hitPaths(res)...)
			if res.NextCursor == "" || len(paged) > len(tc.want) {
				break
			}
			p.Cursor = res.NextCursor
		}
		if !slices.Equal(paged, tc.want) {
			t.Errorf("%+v, page by page: %v, want %v", tc.p, paged, tc.want)
		}
	}

	// A note's git date moves with a commit the wiki makes.
	if _, err := w.Write(ctx, wiki.WriteRequest{Path: "a", Content: "# A\n\nword, rewritten\n", Overwrite: true}); err != nil {
		t.Fatal(err)
	}
	res, err := w.Search(ctx, wiki.SearchParams{Sort: "modified", Limit: 1})
	if err != nil || len(res.Results) != 1 || res.Results[0].Path != "a" {
		t.Fatalf("newest after writing a: %v %v", hitPaths(res), err)
	}
}
