package history_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/history"
	"github.com/wikid/wikid/internal/wiki"
)

// TestIndex_MatchesGit builds random histories with the git CLI in two
// clones that merge each other's work and compares every query with git:
// the log of every path that ever existed, with and without --follow, the
// commits in git log order, and git blame of every file at HEAD. Blame is
// compared on histories whose lines are all unique: where repeated lines
// make several line diffs equally short, git's xdiff may pick another one
// than wikid's, and with it another commit for such a line.
func TestIndex_MatchesGit(t *testing.T) {
	seeds := []uint64{1, 2, 3, 4}
	steps := 70
	if testing.Short() {
		seeds, steps = seeds[:1], 40
	}
	for _, seed := range seeds {
		for _, dups := range []bool{false, true} {
			t.Run(fmt.Sprintf("seed %d, repeated lines %v", seed, dups), func(t *testing.T) {
				t.Parallel()
				g := newHistGen(t, seed, dups)
				g.run(steps)
				for k, dir := range g.dirs {
					x, _ := openIndex(t, dir)
					head := syncHead(t, x, dir)
					compareWithGit(t, fmt.Sprintf("clone %d", k), x, dir, head, !dups)
				}
			})
		}
	}
}

// compareWithGit checks the index at head against the git CLI in dir.
func compareWithGit(t *testing.T, name string, x *history.Index, dir, head string, blame bool) {
	t.Helper()
	ctx := context.Background()
	all := map[string]bool{}
	for _, f := range gitLines(t, dir, "log", "--format=", "--name-only", "--no-renames", "-m", head) {
		all[f] = true
	}
	for f := range all {
		for _, follow := range []bool{false, true} {
			args := []string{"log", "--format=%H"}
			if follow {
				args = append(args, "--follow")
			}
			want := gitLines(t, dir, append(args, head, "--", f)...)
			revs, err := x.Log(ctx, head, f, follow)
			if err != nil {
				t.Fatalf("%s: Log(%s, follow %v): %v", name, f, follow, err)
			}
			if d := sameList(ids(revs), want); d != "" {
				t.Errorf("%s: Log(%s, follow %v) differs from git: %s\n%s", name, f, follow, d,
					graphOf(t, dir))
			}
		}
	}
	want := gitLines(t, dir, "log", "--format=%H", head)
	page, total, next, err := x.Commits(ctx, head, wiki.CommitFilter{}, "", len(want)+1)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, cs := range page {
		got = append(got, cs.ID)
	}
	if d := sameList(got, want); d != "" || total != len(want) || next != "" {
		t.Errorf("%s: Commits: %s; total %d, next %q", name, d, total, next)
	}
	if !blame {
		return
	}
	for _, f := range gitLines(t, dir, "ls-files") {
		compareBlame(t, name, x, dir, head, f)
	}
}

// compareBlame compares the commit of every line with git blame.
func compareBlame(t *testing.T, name string, x *history.Index, dir, head, file string) {
	t.Helper()
	ranges, err := x.Blame(context.Background(), head, file)
	if err != nil {
		t.Fatalf("%s: Blame(%s): %v", name, file, err)
	}
	var got []string
	for _, r := range ranges {
		for i := 0; i < r.Lines; i++ {
			got = append(got, r.Commit.ID)
		}
	}
	want := blameCommits(t, dir, head, file)
	if d := sameList(got, want); d != "" {
		t.Errorf("%s: Blame(%s) differs from git blame: %s", name, file, d)
	}
}

// blameCommits returns the commit of every line per git blame --porcelain,
// without git's indent heuristic, which wikid's line diff does not apply.
func blameCommits(t testing.TB, dir, head, file string) []string {
	t.Helper()
	out := gitLines(t, dir, "-c", "diff.indentHeuristic=false", "blame", "--porcelain", head, "--", file)
	var commits []string
	for _, l := range out {
		f := strings.Fields(l)
		// A header line: sha, original line, final line[, group size].
		if len(f) >= 3 && len(f[0]) == 40 && !strings.HasPrefix(l, "\t") {
			commits = append(commits, f[0])
		}
	}
	return commits
}

func graphOf(t testing.TB, dir string) string {
	return strings.Join(gitLines(t, dir, "log", "--graph", "--format=%h %ct %s", "--name-status", "-M"), "\n")
}
