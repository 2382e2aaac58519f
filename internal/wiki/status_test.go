package wiki_test

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

func TestWiki_Status(t *testing.T) {
	ctx := context.Background()

	t.Run("checkout", func(t *testing.T) {
		dir := fixtureRepo(t, "basic")
		w := openWiki(t, dir, nil)
		if err := w.Reindex(ctx, false, nil); err != nil {
			t.Fatal(err)
		}
		st, err := w.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		head := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
		notes := strings.Count(gittest.Git(t, dir, "ls-files", "-z", "*.md", "*.markdown", "*.mdx"), "\x00")
		if st.Repository != realPath(t, dir) || st.GitDir != realPath(t, filepath.Join(dir, ".git")) ||
			st.Branch != "main" || st.Head != head || st.Bare || st.Detached || st.Notes != notes || st.ReadOnly {
			t.Errorf("status %+v; want repository %s, HEAD %s, %d notes", st, dir, head, notes)
		}
		if !st.Index.Enabled || !st.Index.CaughtUp || st.Index.Behind != 0 || st.Index.Commit != head || st.Index.Building {
			t.Errorf("index %+v", st.Index)
		}
		if st.Sync.Configured || st.Sync.Message == "" {
			t.Errorf("sync %+v", st.Sync)
		}

		// Commits made with git are counted until a search catches up. (The
		// catch-up Open started may still run and take some of them in:
		// git says how many commits separate what the index holds from HEAD.)
		for i := range 3 {
			gittest.Commit(t, dir, "outside", map[string]string{"outside.md": strconv.Itoa(i)})
		}
		st, err = w.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		behind, _ := strconv.Atoi(strings.TrimSpace(gittest.Git(t, dir, "rev-list", "--count", "--first-parent", st.Index.Commit+"..HEAD")))
		if st.Index.CaughtUp != (behind == 0) || st.Index.Behind != behind || st.Notes != notes+1 {
			t.Errorf("after 3 outside commits: %+v, index %+v; git counts %d commits", st, st.Index, behind)
		}
		if behind != 3 {
			t.Logf("the index took in %d outside commits before the check", 3-behind)
		}
		if _, err := w.Search(ctx, wiki.SearchParams{Query: "outside"}); err != nil {
			t.Fatal(err)
		}
		if st, err = w.Status(ctx); err != nil || !st.Index.CaughtUp || st.Index.Behind != 0 {
			t.Errorf("after a search: %+v, %v", st.Index, err)
		}
	})
	t.Run("bare and read-only", func(t *testing.T) {
		src := seeded(t, map[string]string{"a.md": "# A\n"})
		bare := t.TempDir()
		gittest.Git(t, bare, "clone", "-q", "--bare", src, ".")
		w := openWiki(t, bare, func(o *wiki.Options) { o.ReadOnly = true })
		st, err := w.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Repository != realPath(t, bare) || st.GitDir != realPath(t, bare) || !st.Bare || !st.ReadOnly || st.Notes != 1 || st.Branch != "main" {
			t.Errorf("status %+v", st)
		}
	})
	t.Run("unborn branch", func(t *testing.T) {
		w := openWiki(t, gittest.Init(t), nil)
		st, err := w.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Head != "" || st.Notes != 0 || st.Branch != "main" || st.Index.Behind != 0 || !st.Index.CaughtUp {
			t.Errorf("status %+v, index %+v", st, st.Index)
		}
	})
	t.Run("detached", func(t *testing.T) {
		dir := seeded(t, map[string]string{"a.md": "# A\n"})
		gittest.Git(t, dir, "checkout", "-q", "--detach")
		w := openWiki(t, dir, nil)
		st, err := w.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !st.Detached || st.Branch != "" || st.Head == "" {
			t.Errorf("status %+v", st)
		}
	})
}

// realPath resolves symbolic links in a path, as the store does.
func realPath(tb testing.TB, p string) string {
	tb.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}
