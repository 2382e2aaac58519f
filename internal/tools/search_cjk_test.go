package tools_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/tools/toolstest"
	"github.com/wikid/wikid/internal/wiki"
)

// TestServer_SearchCJK checks through the client that search_notes finds
// the Japanese, Korean and Chinese notes that `git grep -l -F` finds, for
// words inside longer runs of characters, and marks the words in the
// snippets.
func TestServer_SearchCJK(t *testing.T) {
	s, dir := inputSession(t, gittest.CJKNotes(120))
	toolstest.WaitIndexed(t, s)
	for _, word := range []string{"プラグイン", "ノート", "無限キャンバス", "노트", "동기화", "插件", "笔记", "无限画布", "の", "记"} {
		t.Run(word, func(t *testing.T) {
			out, _ := gittest.TryGit(dir, "grep", "-l", "-F", "-e", word, "--", "*.md")
			var want []string
			for _, f := range strings.Fields(out) {
				want = append(want, strings.TrimSuffix(f, ".md"))
			}
			var got []string
			cursor := ""
			for {
				args := map[string]any{"query": word, "limit": 50}
				if cursor != "" {
					args["cursor"] = cursor
				}
				res, _ := toolstest.OK[wiki.SearchResult](s, "search_notes", args)
				for _, h := range res.Results {
					got = append(got, h.Path)
					if len(h.Snippets) == 0 || !strings.Contains(h.Snippets[0].Text+h.Title, word) {
						t.Errorf("%s: snippets %+v do not show %q", h.Path, h.Snippets, word)
					}
					if !slices.ContainsFunc(h.Snippets, func(sn wiki.Snippet) bool { return strings.Contains(sn.Text, "«") }) &&
						!strings.Contains(h.Title, word) {
						t.Errorf("%s: no snippet marks %q: %+v", h.Path, word, h.Snippets)
					}
				}
				if cursor = res.NextCursor; cursor == "" {
					break
				}
			}
			slices.Sort(got)
			slices.Sort(want)
			if len(want) == 0 || !slices.Equal(got, want) {
				t.Errorf("search_notes %q finds %d notes, git grep -l -F %d", word, len(got), len(want))
			}
		})
	}
}
