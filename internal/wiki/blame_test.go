package wiki_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// TestWiki_Blame compares the commit of every line of every note with git
// blame --porcelain (without git's indent heuristic, which wikid's line
// diff does not apply).
func TestWiki_Blame(t *testing.T) {
	s := newScenario(t)
	ctx := context.Background()
	for _, file := range gitLines(t, s.dir, "ls-files", "*.md", "*.mdx") {
		p, _, _ := note.SplitFileName(file)
		res, err := s.w.Blame(ctx, wiki.BlameRequest{Path: p})
		if err != nil {
			t.Fatalf("blame %s: %v", p, err)
		}
		got := blameLines(t, res)
		want := gitBlame(t, s.dir, file)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("blame %s:\n got %v\nwant %v", p, got, want)
		}
		if res.Lines != len(want) || res.File != file {
			t.Errorf("blame %s: %d lines of %s", p, res.Lines, res.File)
		}
	}
	t.Run("renamed lines name the old path", func(t *testing.T) {
		res, err := s.w.Blame(ctx, wiki.BlameRequest{Path: "c-renamed"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Ranges[0].OldPath != "folder/c" || res.Ranges[0].Author == "" || res.Ranges[0].Subject != "seed" {
			t.Errorf("first range = %+v", res.Ranges[0])
		}
	})
	t.Run("section", func(t *testing.T) {
		s.write(t, "sections", "# Top\n\nintro\n\n## Part\n\np1\np2\n\n## Other\n\no1\n", false)
		c := s.edit(t, "sections", "p2\n", "P2\n")
		res, err := s.w.Blame(ctx, wiki.BlameRequest{Path: "sections", Section: "Part"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Section != "Part" || res.Lines != 5 || res.Ranges[0].Start != 5 || res.Ranges[len(res.Ranges)-1].End != 9 {
			t.Fatalf("section blame = %+v", res)
		}
		for _, r := range res.Ranges {
			if (r.Start <= 8 && 8 <= r.End) != (r.Commit == c) {
				t.Errorf("range %d-%d is %s", r.Start, r.End, r.Short)
			}
		}
		_, err = s.w.Blame(ctx, wiki.BlameRequest{Path: "sections", Section: "Missing"})
		wantCode(t, err, wiki.CodeNotFound)
	})
	t.Run("errors", func(t *testing.T) {
		_, err := s.w.Blame(ctx, wiki.BlameRequest{Path: "b"})
		wantCode(t, err, wiki.CodeNotFound)
		_, err = s.w.Blame(ctx, wiki.BlameRequest{Path: "/abs"})
		wantCode(t, err, wiki.CodeInvalidPath)
	})
}

// blameLines expands a blame's ranges to one commit per line.
func blameLines(t *testing.T, res *wiki.BlameResult) []string {
	t.Helper()
	var out []string
	next := 1
	for _, r := range res.Ranges {
		if r.Start != next || r.End < r.Start {
			t.Fatalf("blame %s: range %d-%d after line %d", res.Path, r.Start, r.End, next-1)
		}
		for i := r.Start; i <= r.End; i++ {
			out = append(out, r.Commit)
		}
		next = r.End + 1
	}
	return out
}

// gitBlame returns the commit of each line of file at HEAD per git blame.
func gitBlame(t *testing.T, dir, file string) []string {
	t.Helper()
	var out []string
	for _, l := range gitLines(t, dir, "-c", "diff.indentHeuristic=false", "blame", "--porcelain", "HEAD", "--", file) {
		f := strings.Fields(l)
		if len(f) >= 3 && len(f[0]) == 40 && !strings.HasPrefix(l, "\t") {
			out = append(out, f[0])
		}
	}
	return out
}
