package wiki_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// cjkPerScript is how many notes of each script the CJK search tests use.
const cjkPerScript = 120

// searchAll returns the sorted paths of every note a query finds, page by
// page.
func searchAll(tb testing.TB, w *wiki.Wiki, query string) []string {
	tb.Helper()
	var paths []string
	cursor := ""
	for {
		res, err := w.Search(context.Background(), wiki.SearchParams{Query: query, Limit: 100, Cursor: cursor})
		if err != nil {
			tb.Fatalf("search %q: %v", query, err)
		}
		for _, h := range res.Results {
			paths = append(paths, h.Path)
		}
		if res.NextCursor == "" {
			break
		}
		cursor = res.NextCursor
	}
	slices.Sort(paths)
	return paths
}

// gitGrepNotes returns the sorted note paths of the markdown files that
// git grep finds with args (patterns and options), as `git grep -l` does.
func gitGrepNotes(tb testing.TB, dir string, args ...string) []string {
	tb.Helper()
	out, err := gittest.TryGit(dir, append(append([]string{"grep", "-l"}, args...), "--", "*.md")...)
	if err != nil && strings.TrimSpace(out) != "" {
		tb.Fatalf("git grep %q: %v\n%s", args, err, out)
	}
	var paths []string
	for _, f := range strings.Fields(out) {
		paths = append(paths, strings.TrimSuffix(f, ".md"))
	}
	slices.Sort(paths)
	return paths
}

// TestWiki_SearchCJK checks that a search for Japanese, Korean and Chinese
// words finds the notes that git grep finds, whether the word stands alone
// or inside a longer run of characters.
func TestWiki_SearchCJK(t *testing.T) {
	files := gittest.CJKNotes(cjkPerScript)
	dir := seeded(t, files)
	w := openWiki(t, dir, nil)
	waitIndexed(t, w)
	for _, script := range []string{"ja", "ko", "zh"} {
		for _, word := range gittest.CJKQueries[script] {
			t.Run(script+"/"+word, func(t *testing.T) {
				want := gitGrepNotes(t, dir, "-F", "-e", word)
				got := searchAll(t, w, word)
				if len(want) == 0 {
					t.Fatalf("git grep finds no note with %q: the generated notes should hold it", word)
				}
				if !slices.Equal(got, want) {
					t.Errorf("search %q finds %d notes, git grep -F %d\nonly search: %q\nonly grep:   %q",
						word, len(got), len(want), missing(got, want), missing(want, got))
				}
				t.Logf("%s: %d of %d notes", word, len(got), len(want))
			})
		}
	}
	// Latin and CJK together: a phrase, both words, one without the other.
	for _, c := range []struct {
		query string
		grep  []string
	}{
		{`"Obsidian プラグイン"`, []string{"-F", "-i", "-e", "Obsidian プラグイン"}},
		{`"wiki 노트"`, []string{"-F", "-i", "-e", "wiki 노트"}},
		{`"markdown 笔记"`, []string{"-F", "-i", "-e", "markdown 笔记"}},
		{"obsidian AND ノート", []string{"--all-match", "-F", "-i", "-e", "obsidian", "-e", "ノート"}},
		{"동기화 AND 노트북", []string{"--all-match", "-F", "-e", "동기화", "-e", "노트북"}},
		{"插件 OR 画布", []string{"-F", "-e", "插件", "-e", "画布"}},
	} {
		t.Run(c.query, func(t *testing.T) {
			want := gitGrepNotes(t, dir, c.grep...)
			got := searchAll(t, w, c.query)
			if len(want) == 0 || !slices.Equal(got, want) {
				t.Errorf("search %s finds %d notes, git grep %q %d\nonly search: %q\nonly grep:   %q",
					c.query, len(got), c.grep, len(want), missing(got, want), missing(want, got))
			}
		})
	}
}

// missing returns the elements of a that b lacks.
func missing(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}
