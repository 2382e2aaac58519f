package wiki_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// fixtureRepo returns a checkout holding a copy of fixtures/<name> in one
// commit.
func fixtureRepo(tb testing.TB, name string) string {
	tb.Helper()
	return gittest.CopyRepo(tb, filepath.Join("..", "..", "fixtures", name))
}

// fixtureNotes parses every note of a fixture wiki: the oracle the index
// results are checked against.
func fixtureNotes(tb testing.TB, dir string) []*note.Note {
	tb.Helper()
	var notes []*note.Note
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(dir, p)
		np, _, ok := note.SplitFileName(filepath.ToSlash(rel))
		if d.IsDir() || !ok {
			return nil
		}
		b, _ := os.ReadFile(p)
		notes = append(notes, note.Parse(np, b))
		return nil
	})
	return notes
}

func searchPaths(tb testing.TB, w *wiki.Wiki, p wiki.SearchParams) []string {
	tb.Helper()
	p.Limit = 100
	res, err := w.Search(context.Background(), p)
	if err != nil {
		tb.Fatalf("search %+v: %v", p, err)
	}
	paths := make([]string, len(res.Results))
	for i, h := range res.Results {
		paths[i] = h.Path
	}
	slices.Sort(paths)
	return paths
}

func TestWiki_Search_Fixture(t *testing.T) {
	ctx := context.Background()
	dir := fixtureRepo(t, "basic")
	w := openWiki(t, dir, nil)
	if err := w.Reindex(ctx, false, nil); err != nil {
		t.Fatal(err)
	}
	notes := fixtureNotes(t, dir)
	oracle := func(keep func(n *note.Note) bool) []string {
		var out []string
		for _, n := range notes {
			if keep(n) {
				out = append(out, n.Path)
			}
		}
		slices.Sort(out)
		return out
	}
	tests := []struct {
		name string
		p    wiki.SearchParams
		want []string
	}{
		{"tag", wiki.SearchParams{Query: "tag:project"}, oracle(func(n *note.Note) bool { return n.HasTag("project") })},
		{"nested tag", wiki.SearchParams{Query: "tag:project/alpha"}, oracle(func(n *note.Note) bool { return n.HasTag("project/alpha") })},
		{"folder", wiki.SearchParams{Query: "folder:projects/alpha"}, oracle(func(n *note.Note) bool { return strings.HasPrefix(n.Path, "projects/alpha/") })},
		{"folder filter", wiki.SearchParams{Folder: "journal"}, oracle(func(n *note.Note) bool { return strings.HasPrefix(n.Path, "journal/") })},
		{"all but a folder", wiki.SearchParams{Query: "-folder:journal -folder:reference"}, oracle(func(n *note.Note) bool {
			return !strings.HasPrefix(n.Path, "journal/") && !strings.HasPrefix(n.Path, "reference/")
		})},
		{"tags filter", wiki.SearchParams{Tags: []string{"project", "planning"}}, oracle(func(n *note.Note) bool { return n.HasTag("project") && n.HasTag("planning") })},
		{"word", wiki.SearchParams{Query: `"milestones"`}, oracle(func(n *note.Note) bool { return containsWord(n.Raw, "milestones") })},
		{"word in its forms", wiki.SearchParams{Query: "milestones"}, oracle(func(n *note.Note) bool {
			return containsWord(n.Raw, "milestones") || containsWord(n.Raw, "milestone")
		})},
		{"word and tag", wiki.SearchParams{Query: "budget -tag:finance"}, oracle(func(n *note.Note) bool { return containsWord(n.Raw, "budget") && !n.HasTag("finance") })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if len(tt.want) == 0 {
				t.Fatal("the oracle found nothing: the test would not test anything")
			}
			if got := searchPaths(t, w, tt.p); !slices.Equal(got, tt.want) {
				t.Errorf("got  %v\nwant %v", got, tt.want)
			}
		})
	}
}

// containsWord reports whether b has word as a whole word, ignoring case.
func containsWord(b []byte, word string) bool {
	fields := bytes.FieldsFunc(bytes.ToLower(b), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
	})
	for _, f := range fields {
		if string(f) == word {
			return true
		}
	}
	return false
}

// TestWiki_Search_Lifecycle follows the index through everything that can
// happen to the repository under it.
func TestWiki_Search_Lifecycle(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "# A\n\nzebra\n", "b.md": "# B\n\nzebra yak\n"})
	w := openWiki(t, dir, nil)
	if err := w.Reindex(ctx, false, nil); err != nil { // wait for the first build
		t.Fatal(err)
	}
	zebra := wiki.SearchParams{Query: "zebra"}
	want := func(step string, p wiki.SearchParams, paths ...string) {
		t.Helper()
		if got := searchPaths(t, w, p); !slices.Equal(got, paths) {
			t.Errorf("%s: got %v, want %v", step, got, paths)
		}
	}
	want("initial build", zebra, "a", "b")

	if _, err := w.Write(ctx, wiki.WriteRequest{Path: "c", Content: "zebra again\n"}); err != nil {
		t.Fatal(err)
	}
	want("after a wikid write", zebra, "a", "b", "c")

	gittest.Commit(t, dir, "by hand", map[string]string{"d.md": "zebra by hand\n"})
	want("after a git commit", zebra, "a", "b", "c", "d")

	gittest.Git(t, dir, "rm", "-q", "a.md")
	gittest.Git(t, dir, "commit", "-q", "-m", "rm a")
	gittest.Commit(t, dir, "yak", map[string]string{"e.md": "yak\n"})
	gittest.Git(t, dir, "reset", "-q", "--hard", "HEAD~3")
	want("after reset --hard HEAD~3", zebra, "a", "b", "c")
	want("after reset --hard HEAD~3 (yak)", wiki.SearchParams{Query: "yak"}, "b")

	gittest.Commit(t, dir, "rewritten", map[string]string{"f.md": "zebra rewritten\n"})
	gittest.Git(t, dir, "commit", "-q", "--amend", "-m", "amended")
	want("after an amend", zebra, "a", "b", "c", "f")
}

func TestWiki_Search_RebuiltWhenDeletedOrCorrupt(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "zebra\n"})
	state := filepath.Join(dir, ".git", "wikid")
	for _, damage := range []struct {
		name string
		do   func(t *testing.T)
		warn string // expected in the log
	}{
		{"deleted", func(t *testing.T) { os.RemoveAll(state) }, ""},
		{"truncated", func(t *testing.T) {
			filepath.WalkDir(state, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					os.Truncate(p, 10)
				}
				return nil
			})
		}, "recreating"},
	} {
		t.Run(damage.name, func(t *testing.T) {
			w := openWiki(t, dir, nil)
			if err := w.Reindex(ctx, false, nil); err != nil {
				t.Fatal(err)
			}
			w.Close(ctx)
			damage.do(t)
			var log bytes.Buffer
			w = openWikiLogged(t, dir, nil, &log)
			if err := w.Reindex(ctx, false, nil); err != nil {
				t.Fatal(err)
			}
			if got := searchPaths(t, w, wiki.SearchParams{Query: "zebra"}); !slices.Equal(got, []string{"a"}) {
				t.Errorf("got %v", got)
			}
			if !strings.Contains(log.String(), damage.warn) || damage.warn != "" && !strings.Contains(log.String(), "level=WARN") {
				t.Errorf("log lacks a warning %q:\n%s", damage.warn, log.String())
			}
		})
	}
}

func TestWiki_Grep(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{
		"a.md":          "# A\nTODO: call Ana\nnothing\n",
		"sub/b.md":      "todo later\r\nTODO(bob)\r\n",
		"notes.txt":     "TODO not a note\n",
		"sub/deep/c.md": "x TODO y\n",
	})
	w := openWiki(t, dir, nil)
	tests := []struct {
		name string
		req  wiki.GrepRequest
		want []wiki.GrepMatch
		code wiki.Code
	}{
		{"literal, any case", wiki.GrepRequest{Pattern: "todo"}, []wiki.GrepMatch{
			{Path: "a", Line: 2, Text: "TODO: call Ana"}, {Path: "sub/b", Line: 1, Text: "todo later"},
			{Path: "sub/b", Line: 2, Text: "TODO(bob)"}, {Path: "sub/deep/c", Line: 1, Text: "x TODO y"}}, ""},
		{"case-sensitive", wiki.GrepRequest{Pattern: "todo", CaseSensitive: true}, []wiki.GrepMatch{{Path: "sub/b", Line: 1, Text: "todo later"}}, ""},
		{"regex", wiki.GrepRequest{Pattern: `^TODO\(`, Regex: true, CaseSensitive: true}, []wiki.GrepMatch{{Path: "sub/b", Line: 2, Text: "TODO(bob)"}}, ""},
		{"folder", wiki.GrepRequest{Pattern: "todo", Folder: "sub/deep"}, []wiki.GrepMatch{{Path: "sub/deep/c", Line: 1, Text: "x TODO y"}}, ""},
		{"bad regex", wiki.GrepRequest{Pattern: "(", Regex: true}, nil, wiki.CodeInvalidParams},
		{"empty", wiki.GrepRequest{}, nil, wiki.CodeInvalidParams},
		{"bad folder", wiki.GrepRequest{Pattern: "x", Folder: "../up"}, nil, wiki.CodeInvalidPath},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := w.Grep(ctx, tt.req)
			if tt.code != "" {
				wantCode(t, err, tt.code)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Matches, tt.want) {
				t.Errorf("got  %+v\nwant %+v", res.Matches, tt.want)
			}
		})
	}
	res, err := w.Grep(ctx, wiki.GrepRequest{Pattern: "todo", Limit: 2})
	if err != nil || len(res.Matches) != 2 || !res.Truncated {
		t.Errorf("limit 2: %+v, %v", res, err)
	}
}
