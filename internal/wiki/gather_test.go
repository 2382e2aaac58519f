package wiki_test

import (
	"context"
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
	question string
	cite     []string
}

// contextQuestions are written questions over fixtures/basic.
var contextQuestions = []contextQuestion{
	{"Why did we choose object storage instead of a bigger NAS?", []string{"projects/alpha/decisions"}},
	{"How fast may the backfill copy data without saturating the network?", []string{"projects/alpha/plan"}},
	{"Who owns the dashboards for Beta?", []string{"projects/beta/overview"}},
	{"When is Alice on leave?", []string{"people/alice", "projects/alpha/plan"}},
	{"How much does storage cost per month, and what should the migration save?", []string{"areas/finance/budget", "projects/alpha/overview"}},
	{"Who knows the charting library?", []string{"projects/beta/risks"}},
	{"When does the cut-over milestone start and end?", []string{"projects/alpha/plan"}},
	{"How do we keep the old URLs working?", []string{"projects/alpha/decisions", "projects/alpha/overview"}},
	{"Who was at the Alpha kickoff?", []string{"journal/2024/2024-01-15"}},
	{"What does backfill mean?", []string{"reference/glossary"}},
	{"What is the training plan for the half marathon?", []string{"areas/health/running"}},
	{"How many hours of sleep is the target, and what hurts it?", []string{"areas/health/sleep"}},
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

	for _, wikiDir := range []struct{ name, dir string }{{"fixture", fixture}, {"generated", generated}} {
		t.Run(wikiDir.name, func(t *testing.T) {
			w := openWikiWith(t, wikiDir.dir, nil, io.Discard, graph.New())
			found := 0
			for _, q := range contextQuestions {
				res, err := w.GatherContext(context.Background(), wiki.ContextRequest{Question: q.question})
				if err != nil {
					t.Fatalf("%s: %v", q.question, err)
				}
				if res.Tokens > res.Budget || res.Budget != wiki.DefaultContextBudget {
					t.Errorf("%s: %d tokens of a budget of %d", q.question, res.Tokens, res.Budget)
				}
				var paths []string
				for _, s := range res.Sections {
					checkCited(t, wikiDir.dir, s)
					paths = append(paths, s.Path)
				}
				if slices.ContainsFunc(q.cite, func(p string) bool { return slices.Contains(paths, p) }) {
					found++
				} else {
					t.Logf("%s: none of %v in %v", q.question, q.cite, paths)
				}
			}
			t.Logf("%s wiki: a note to cite in %d of %d answers", wikiDir.name, found, len(contextQuestions))
			if found*10 < len(contextQuestions)*8 {
				t.Errorf("%s wiki: a note to cite in only %d of %d answers", wikiDir.name, found, len(contextQuestions))
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
