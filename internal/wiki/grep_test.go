package wiki_test

import (
	"bytes"
	"context"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// grepOracle greps the files of a checkout the plain way: every markdown
// file, every line. It is what Grep must answer, however it narrows.
func grepOracle(tb testing.TB, dir string, req wiki.GrepRequest) []wiki.GrepMatch {
	tb.Helper()
	var match func(string) bool
	switch {
	case req.Regex:
		expr := req.Pattern
		if !req.CaseSensitive {
			expr = "(?i)" + expr
		}
		re := regexp.MustCompile(expr)
		match = re.MatchString
	case req.CaseSensitive:
		match = func(l string) bool { return strings.Contains(l, req.Pattern) }
	default:
		pat := strings.ToLower(req.Pattern)
		match = func(l string) bool { return strings.Contains(strings.ToLower(l), pat) }
	}
	folder := req.Folder
	if folder == "" {
		folder = "."
	}
	files := strings.Split(strings.Trim(gittest.Git(tb, dir, "ls-files", "-z", "--", folder), "\x00"), "\x00")
	slices.Sort(files)
	out := []wiki.GrepMatch{}
	for _, f := range files {
		p, _, ok := note.SplitFileName(f)
		if !ok {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			tb.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if line = strings.TrimSuffix(line, "\r"); match(line) {
				out = append(out, wiki.GrepMatch{Path: p, Line: i + 1, Text: line})
			}
		}
	}
	return out
}

// TestWiki_GrepNarrowed checks that grep answers the same with the index
// narrowing the notes as by reading every line of every note: for pieces
// of the fixture wiki's lines in other cases, words that only the
// frontmatter holds, regular expressions built from them, and notes with
// letters that the index's lowercasing garbles. It also checks that the
// index did narrow.
func TestWiki_GrepNarrowed(t *testing.T) {
	ctx := context.Background()
	dir := fixtureRepo(t, "basic")
	gittest.Commit(t, dir, "odd notes", map[string]string{
		"odd/kelvin.md":   "The \u212Aelvin scale.\n",
		"odd/long-s.md":   "Beſt practice: ſtar.\n",
		"odd/crlf.md":     "---\r\nstatus: Draft-Only\r\n---\r\nWindows line\r\n",
		"odd/same.md":     "duplicate one\n",
		"odd/same.MD":     "duplicate two, zebracorn\n",
		"odd/dotted.md":   "İstanbul trip\n",
		"odd/punct.md":    "foo.bar can't x_y 3.14 e-mail\n",
		"odd/not-a-note":  "zebracorn everywhere\n",
		"odd/nested/a.md": "zebracorn nested\n",
	})
	var log bytes.Buffer
	w := openWiki(t, dir, func(o *wiki.Options) {
		o.Logger = slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	waitIndexed(t, w)

	reqs := []wiki.GrepRequest{
		{Pattern: "zebracorn"},
		{Pattern: "elvin"},
		{Pattern: "kelvin"},
		{Pattern: "star", Regex: true},
		{Pattern: "istanbul"},
		{Pattern: "draft-only"},
		{Pattern: "status: draft"},
		{Pattern: "o.ba"},
		{Pattern: "can't"},
		{Pattern: "x_y 3.1"},
		{Pattern: `foo\.bar\s+can`, Regex: true},
		{Pattern: `(zebra|xyz)corn`, Regex: true},
		{Pattern: `zebra(corn)+`, Regex: true, CaseSensitive: true},
		{Pattern: "Windows", CaseSensitive: true},
		{Pattern: "windows", CaseSensitive: true},
		{Pattern: "zebracorn", Folder: "odd/nested"},
	}
	r := rand.New(rand.NewPCG(7, 8))
	var lines []string
	for _, p := range strings.Split(gittest.Git(t, dir, "ls-files"), "\n") {
		if b, err := os.ReadFile(filepath.Join(dir, p)); err == nil && note.IsMarkdown(p) {
			lines = append(lines, strings.Split(string(b), "\n")...)
		}
	}
	for len(reqs) < 400 {
		line := lines[r.IntN(len(lines))]
		if len(line) < 2 {
			continue
		}
		i := r.IntN(len(line) - 1)
		j := min(len(line), i+2+r.IntN(14))
		piece := line[i:j]
		switch r.IntN(4) {
		case 0:
			piece = strings.ToUpper(piece)
		case 1:
			reqs = append(reqs, wiki.GrepRequest{Pattern: regexp.QuoteMeta(piece) + `.*\w`, Regex: true})
			continue
		}
		reqs = append(reqs, wiki.GrepRequest{Pattern: piece, CaseSensitive: r.IntN(5) == 0})
	}
	for _, req := range reqs {
		req.Limit = 100000
		want := grepOracle(t, dir, req)
		res, err := w.Grep(ctx, req)
		if err != nil {
			t.Fatalf("grep %+v: %v", req, err)
		}
		if !slices.Equal(res.Matches, want) {
			t.Fatalf("grep %+v:\ngot  %+v\nwant %+v", req, res.Matches, want)
		}
	}
	if !strings.Contains(log.String(), "narrowed=true") {
		t.Errorf("grep never narrowed the notes with the index; log:\n%s", log.String())
	}
}

// waitIndexed waits until the wiki's search index is at HEAD: a search
// waits for it.
func waitIndexed(tb testing.TB, w *wiki.Wiki) {
	tb.Helper()
	if _, err := w.Search(context.Background(), wiki.SearchParams{Limit: 1}); err != nil {
		tb.Fatal(err)
	}
}
