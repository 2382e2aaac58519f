package wiki_test

import (
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/wiki"
)

// contextQuestion is a question a person would ask of the fixture wiki,
// with the notes they would cite in the answer.
type contextQuestion struct {
	Question string   `json:"question"`
	Cite     []string `json:"cite"`
}

// contextQuestions reads the written questions over fixtures/basic.
func contextQuestions(tb testing.TB) []contextQuestion {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "basic-questions.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var qs []contextQuestion
	if err := json.Unmarshal(b, &qs); err != nil {
		tb.Fatal(err)
	}
	return qs
}

// TestWiki_GatherContext_questions asks the written questions of the
// fixture wiki, alone and inside a generated wiki of 2,000 notes, and
// counts the answers that hold a note a person would cite. Every section
// must be the file's lines at HEAD, with the note's version, within the
// budget.
func TestWiki_GatherContext_questions(t *testing.T) {
	fixture := fixtureRepo(t, "basic")
	generated := filepath.Join(t.TempDir(), "generated")
	gittest.Generate(t, generated, 2000, 200)
	gittest.Commit(t, generated, "the fixture notes", fixtureFiles(t, filepath.Join("..", "..", "fixtures", "basic")))

	questions := contextQuestions(t)
	for _, wikiDir := range []struct{ name, dir string }{{"fixture", fixture}, {"generated", generated}} {
		t.Run(wikiDir.name, func(t *testing.T) {
			w := openWikiWith(t, wikiDir.dir, nil, io.Discard, graph.New())
			found := 0
			for _, q := range questions {
				res, err := w.GatherContext(context.Background(), wiki.ContextRequest{Question: q.Question})
				if err != nil {
					t.Fatalf("%s: %v", q.Question, err)
				}
				if res.Tokens > res.Budget || res.Budget != wiki.DefaultContextBudget {
					t.Errorf("%s: %d tokens of a budget of %d", q.Question, res.Tokens, res.Budget)
				}
				var paths []string
				for _, s := range res.Sections {
					checkCited(t, wikiDir.dir, s)
					paths = append(paths, s.Path)
				}
				if slices.ContainsFunc(q.Cite, func(p string) bool { return slices.Contains(paths, p) }) {
					found++
				} else {
					t.Logf("%s: none of %v in %v", q.Question, q.Cite, paths)
				}
			}
			t.Logf("%s wiki: a note to cite in %d of %d answers", wikiDir.name, found, len(questions))
			if found*10 < len(questions)*8 {
				t.Errorf("%s wiki: a note to cite in only %d of %d answers", wikiDir.name, found, len(questions))
			}
		})
	}
}

// checkCited fails unless a section is the note's lines at HEAD, cited
// with a prefix of the note's blob id.
func checkCited(tb testing.TB, dir string, s wiki.ContextSection) {
	tb.Helper()
	file := ""
	for _, ext := range []string{".md", ".markdown", ".mdx"} {
		if _, err := gittest.TryGit(dir, "cat-file", "-e", "HEAD:"+s.Path+ext); err == nil {
			file = s.Path + ext
			break
		}
	}
	if file == "" {
		tb.Fatalf("section of %s: no such note at HEAD", s.Path)
	}
	blob := strings.TrimSpace(gittest.Git(tb, dir, "rev-parse", "HEAD:"+file))
	if len(s.Version) < 7 || !strings.HasPrefix(blob, s.Version) {
		tb.Errorf("%s: version %q, blob %s", s.Path, s.Version, blob)
	}
	lines := strings.Split(strings.ReplaceAll(gittest.Git(tb, dir, "show", "HEAD:"+file), "\r\n", "\n"), "\n")
	if s.StartLine < 1 || s.EndLine < s.StartLine || s.EndLine > len(lines) {
		tb.Fatalf("%s: lines %d-%d of %d", s.Path, s.StartLine, s.EndLine, len(lines))
	}
	if want := strings.Join(lines[s.StartLine-1:s.EndLine], "\n"); s.Text != want {
		tb.Errorf("%s lines %d-%d:\n%s\nthe file has:\n%s", s.Path, s.StartLine, s.EndLine, s.Text, want)
	}
}

// fixtureFiles reads the files of a fixture folder, by path.
func fixtureFiles(tb testing.TB, root string) map[string]string {
	tb.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return files
}

func TestWiki_GatherContext(t *testing.T) {
	dir := fixtureRepo(t, "basic")
	w := openWikiWith(t, dir, nil, io.Discard, graph.New())
	ctx := context.Background()

	t.Run("folder", func(t *testing.T) {
		res, err := w.GatherContext(ctx, wiki.ContextRequest{Question: "Who owns the dashboards for Beta?", Folder: "people/"})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Sections) == 0 {
			t.Fatal("no sections")
		}
		for _, s := range res.Sections {
			if !strings.HasPrefix(s.Path, "people/") {
				t.Errorf("section of %s, outside the folder", s.Path)
			}
		}
		for _, m := range res.More {
			if !strings.HasPrefix(m.Path, "people/") {
				t.Errorf("more names %s, outside the folder", m.Path)
			}
		}
	})

	t.Run("links between the sections", func(t *testing.T) {
		res, err := w.GatherContext(ctx, wiki.ContextRequest{Question: "Who was at the Alpha kickoff?"})
		if err != nil {
			t.Fatal(err)
		}
		in := map[string]bool{}
		for _, s := range res.Sections {
			in[s.Path] = true
		}
		linked := 0
		for _, s := range res.Sections {
			for _, l := range s.Links {
				linked++
				if !in[l] || l == s.Path {
					t.Errorf("%s links to %s, not another note of the result", s.Path, l)
				}
			}
		}
		if linked == 0 {
			t.Errorf("no links between %d sections", len(res.Sections))
		}
	})

	t.Run("a small budget", func(t *testing.T) {
		res, err := w.GatherContext(ctx, wiki.ContextRequest{Question: "backfill", Budget: wiki.MinContextBudget})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Sections) == 0 || res.Tokens > wiki.MinContextBudget {
			t.Errorf("%d sections, %d tokens", len(res.Sections), res.Tokens)
		}
	})

	for _, tt := range []struct {
		name string
		req  wiki.ContextRequest
		code wiki.Code
	}{
		{"no words", wiki.ContextRequest{Question: "what is it?"}, wiki.CodeInvalidParams},
		{"empty", wiki.ContextRequest{}, wiki.CodeInvalidParams},
		{"budget too small", wiki.ContextRequest{Question: "backfill", Budget: 50}, wiki.CodeInvalidParams},
		{"budget too large", wiki.ContextRequest{Question: "backfill", Budget: wiki.MaxContextBudget + 1}, wiki.CodeInvalidParams},
		{"bad folder", wiki.ContextRequest{Question: "backfill", Folder: "../up"}, wiki.CodeInvalidPath},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := w.GatherContext(ctx, tt.req)
			wantCode(t, err, tt.code)
		})
	}
}
