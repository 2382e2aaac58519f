package wiki_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// openHistoryWiki opens a wiki over dir on the real clock, and closes it
// when the test ends.
func openHistoryWiki(tb testing.TB, dir string) *wiki.Wiki {
	tb.Helper()
	return openHistoryWikiWith(tb, dir, nil)
}

// openHistoryWikiWith is openHistoryWiki with the link graph g (nil for a
// new one).
func openHistoryWikiWith(tb testing.TB, dir string, g wiki.Graph) *wiki.Wiki {
	tb.Helper()
	ctx := context.Background()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	store, err := gitstore.Open(ctx, dir, gitstore.Options{})
	if err != nil {
		tb.Fatalf("gitstore.Open: %v", err)
	}
	opts := wiki.Options{
		Author:    wiki.Identity{Name: "Ada Author", Email: "ada@example.com"},
		Committer: wiki.Identity{Name: "wikid", Email: "wikid@example.com"},
		Logger:    logger,
	}
	d := deps(tb, store, logger, nil)
	if g != nil {
		d.Graph = g
	}
	w, err := wiki.Open(ctx, d, opts)
	if err != nil {
		tb.Fatalf("wiki.Open: %v", err)
	}
	tb.Cleanup(func() { w.Close(ctx) })
	return w
}

var hm = wiki.Mutation{Caller: wiki.Caller{Client: "test/1"}}

// scenario is a repository whose history was made by wikid and by the git
// CLI in two clones: edits, a move inside wikid, a rename with an edit
// outside it, a delete and a re-creation, and a merge of a second clone's
// work.
type scenario struct {
	dir, clone string
	w          *wiki.Wiki
}

func newScenario(t *testing.T) *scenario {
	t.Helper()
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "seed", map[string]string{
		"a.md":          "# A\n\none\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n",
		"b.md":          "# B\n\nbee\n",
		"folder/c.md":   "# C\n\nsee\nsea\nsee again\n",
		"other.txt":     "not a note\n",
		"folder/d.mdx":  "# D\n\ndee\n",
		"notes/log.md":  "# Log\n",
		"notes/keep.md": "# Keep\n\nkept\n",
	})
	s := &scenario{dir: dir, w: openHistoryWiki(t, dir)}
	s.edit(t, "a", "two\n", "TWO\n")
	s.write(t, "new", "# New\n\nfresh\n", false)
	if _, err := s.w.Move(ctx, wiki.MoveRequest{Path: "b", NewPath: "folder/b2", Mutation: hm}); err != nil {
		t.Fatalf("move: %v", err)
	}
	s.edit(t, "folder/c", "sea\n", "ocean\n")
	// A rename with an edit, outside wikid.
	gittest.Git(t, dir, "mv", "folder/c.md", "c-renamed.md")
	gittest.Commit(t, dir, "rename c outside wikid", map[string]string{
		"c-renamed.md": "# C\n\nsee\nocean\nsee again\nand more\n",
	})
	s.delete(t, "new")
	s.write(t, "new", "# New again\n\nreborn\n", false)
	// A second clone edits a, adds a note and renames one; main edits a
	// elsewhere; then main pulls.
	s.clone = t.TempDir()
	gittest.Git(t, s.clone, "clone", "-q", dir, ".")
	gittest.Commit(t, s.clone, "edit a in the clone", map[string]string{
		"a.md":     "# A\n\none\nTWO\nthree\nfour\nfive\nsix\nseven\nEIGHT\n",
		"e.md":     "# E\n\nfrom the clone\n",
		"notes.md": "# Notes\n",
	})
	gittest.Git(t, s.clone, "mv", "notes/keep.md", "notes/kept.md")
	gittest.Commit(t, s.clone, "rename keep in the clone", nil)
	s.edit(t, "a", "four\n", "FOUR\n")
	s.edit(t, "notes/log", "# Log\n", "# Log\n\nmain\n")
	gittest.Git(t, dir, "fetch", "-q", s.clone, "main")
	gittest.Git(t, dir, "merge", "-q", "--no-edit", "-m", "merge the clone", "FETCH_HEAD")
	s.edit(t, "a", "six\n", "SIX\n")
	s.edit(t, "e", "from the clone\n", "from the clone, edited in main\n")
	checkRepo(t, dir)
	return s
}

func (s *scenario) edit(t *testing.T, path, find, content string) string {
	t.Helper()
	res, err := s.w.Edit(context.Background(), wiki.EditRequest{Path: path, Mutation: hm,
		Edits: []note.Edit{{Op: note.OpReplace, Find: find, Content: content}}})
	if err != nil {
		t.Fatalf("edit %s: %v", path, err)
	}
	return res.Commit
}

func (s *scenario) write(t *testing.T, path, content string, overwrite bool) string {
	t.Helper()
	res, err := s.w.Write(context.Background(), wiki.WriteRequest{Path: path, Content: content, Overwrite: overwrite, Mutation: hm})
	if err != nil {
		t.Fatalf("write %s: %v", path, err)
	}
	return res.Commit
}

func (s *scenario) delete(t *testing.T, path string) string {
	t.Helper()
	res, err := s.w.Delete(context.Background(), wiki.DeleteRequest{Path: path, Confirm: true, Mutation: hm})
	if err != nil {
		t.Fatalf("delete %s: %v", path, err)
	}
	return res.Commit
}

// notes are the scenario's note paths with their files, current and gone.
var scenarioNotes = map[string]string{
	"a": "a.md", "folder/b2": "folder/b2.md", "b": "b.md", "c-renamed": "c-renamed.md",
	"folder/c": "folder/c.md", "new": "new.md", "e": "e.md", "notes/log": "notes/log.md",
	"notes/kept": "notes/kept.md", "notes/keep": "notes/keep.md", "folder/d": "folder/d.mdx",
}

// TestWiki_History compares every note's history, followed and not, page
// by page, with git log.
func TestWiki_History(t *testing.T) {
	s := newScenario(t)
	for path, file := range scenarioNotes {
		for _, follow := range []bool{true, false} {
			args := []string{"log", "--format=%H"}
			if follow {
				args = append(args, "--follow")
			}
			want := gitLines(t, s.dir, append(args, "--", file)...)
			got, revs := historyPages(t, s.w, path, !follow, 2)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("history of %s (follow %v):\n got %v\nwant %v", path, follow, got, want)
			}
			for _, r := range revs {
				if r.Short != r.Commit[:7] || r.Author == "" || r.Subject == "" {
					t.Errorf("history of %s: incomplete entry %+v", path, r)
				}
				if r.Version != "" {
					if blob := strings.TrimSpace(gittest.Git(t, s.dir, "rev-parse", r.Commit+":"+noteFile(r.Path, file))); blob != r.Version {
						t.Errorf("history of %s: version %s at %s, git has %s", path, r.Version, r.Short, blob)
					}
				}
			}
		}
	}
	t.Run("change kinds and stats", func(t *testing.T) {
		res, err := s.w.History(context.Background(), wiki.HistoryRequest{Path: "c-renamed"})
		if err != nil {
			t.Fatal(err)
		}
		var kinds []string
		for _, r := range res.Revisions {
			kinds = append(kinds, string(r.Change))
			numstat := gitLines(t, s.dir, "show", "--format=", "--numstat", "-M", r.Commit)
			if want := numstatOf(numstat, noteFile(r.Path, "c-renamed.md")); want != [2]int{r.Additions, r.Deletions} {
				t.Errorf("%s at %s: +%d -%d, git --numstat says %v", r.Path, r.Short, r.Additions, r.Deletions, want)
			}
		}
		if got := strings.Join(kinds, " "); got != "renamed modified added" {
			t.Errorf("kinds = %s, want renamed modified added", got)
		}
		if res.Revisions[0].OldPath != "folder/c" || !res.Exists {
			t.Errorf("rename entry = %+v", res.Revisions[0])
		}
	})
	t.Run("deleted note", func(t *testing.T) {
		res, err := s.w.History(context.Background(), wiki.HistoryRequest{Path: "b"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Exists || res.Revisions[0].Change != wiki.ChangeDeleted || res.File != "b.md" {
			t.Errorf("history of a moved-away note = %+v", res)
		}
	})
	t.Run("errors", func(t *testing.T) {
		ctx := context.Background()
		_, err := s.w.History(ctx, wiki.HistoryRequest{Path: "never-was"})
		wantCode(t, err, wiki.CodeNotFound)
		_, err = s.w.History(ctx, wiki.HistoryRequest{Path: "../x"})
		wantCode(t, err, wiki.CodeInvalidPath)
		_, err = s.w.History(ctx, wiki.HistoryRequest{Path: "a", Cursor: "nonsense"})
		wantCode(t, err, wiki.CodeInvalidParams)
		_, err = s.w.History(ctx, wiki.HistoryRequest{Path: "a", Limit: -1})
		wantCode(t, err, wiki.CodeInvalidParams)
	})
}

// historyPages collects a note's history page by page.
func historyPages(t *testing.T, w *wiki.Wiki, path string, noFollow bool, limit int) ([]string, []wiki.HistoryEntry) {
	t.Helper()
	var ids []string
	var all []wiki.HistoryEntry
	cursor := ""
	for {
		res, err := w.History(context.Background(), wiki.HistoryRequest{Path: path, NoFollow: noFollow, Limit: limit, Cursor: cursor})
		if err != nil {
			t.Fatalf("history of %s: %v", path, err)
		}
		for _, r := range res.Revisions {
			ids = append(ids, r.Commit)
			all = append(all, r)
		}
		if len(res.Revisions) > limit || res.Total < len(ids) {
			t.Fatalf("history of %s: page of %d, total %d", path, len(res.Revisions), res.Total)
		}
		if res.NextCursor == "" {
			if res.Total != len(ids) {
				t.Errorf("history of %s: total %d, listed %d", path, res.Total, len(ids))
			}
			return ids, all
		}
		cursor = res.NextCursor
	}
}

// noteFile returns the file of a note path, taking the extension from a
// file of the same note.
func noteFile(notePath, file string) string {
	ext := filepath.Ext(file)
	return notePath + ext
}

// numstatOf returns the counts `git --numstat` gives a file ("a => b" for a
// rename, in either spelling).
func numstatOf(lines []string, file string) [2]int {
	for _, l := range lines {
		f := strings.Split(l, "\t")
		if len(f) < 3 {
			continue
		}
		name := f[len(f)-1]
		if name == file || strings.HasSuffix(name, "=> "+file) || strings.Contains(name, "=> "+filepath.Base(file)+"}") ||
			(len(f) == 4 && f[3] == file) {
			return [2]int{atoi(f[0]), atoi(f[1])}
		}
	}
	return [2]int{-2, -2}
}

func atoi(s string) int {
	if s == "-" {
		return -1
	}
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// gitLines runs git and returns its output's non-empty lines.
func gitLines(tb testing.TB, dir string, args ...string) []string {
	tb.Helper()
	var out []string
	for _, l := range strings.Split(gittest.Git(tb, dir, args...), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// TestWiki_HistoryUnborn asks the history tools about a wiki without
// commits.
func TestWiki_HistoryUnborn(t *testing.T) {
	w := openHistoryWiki(t, gittest.Init(t))
	ctx := context.Background()
	_, err := w.History(ctx, wiki.HistoryRequest{Path: "a"})
	wantCode(t, err, wiki.CodeNotFound)
	_, err = w.Diff(ctx, wiki.DiffRequest{})
	wantCode(t, err, wiki.CodeNotFound)
	_, err = w.Blame(ctx, wiki.BlameRequest{Path: "a"})
	wantCode(t, err, wiki.CodeNotFound)
	_, err = w.Restore(ctx, wiki.RestoreRequest{Path: "a"})
	wantCode(t, err, wiki.CodeNotFound)
	_, err = w.Revert(ctx, wiki.RevertRequest{Commit: "HEAD"})
	wantCode(t, err, wiki.CodeNotFound)
	act, err := w.Activity(ctx, wiki.ActivityRequest{})
	if err != nil || len(act.Commits) != 0 || act.Total != 0 {
		t.Errorf("activity of an empty wiki: %+v, %v", act, err)
	}
	rec, err := w.RecentChanges(ctx, wiki.RecentRequest{})
	if err != nil || len(rec.Results) != 0 {
		t.Errorf("recent changes of an empty wiki: %+v, %v", rec, err)
	}
}
