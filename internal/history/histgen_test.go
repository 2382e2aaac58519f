package history_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
)

// histGen writes a random history with the git CLI in two clones that edit,
// add, delete, re-create and rename notes (with and without edits, inside
// and across folders) and merge each other's work, including merges that
// resolve conflicts and merges that change a file themselves. Commit dates
// mostly increase, sometimes repeat, and now and then go back. With dups,
// notes have repeated lines (blank ones, list items); without, every line
// of every note is unique, so that any two minimal line diffs agree.
type histGen struct {
	tb      testing.TB
	rng     *rand.Rand
	dups    bool
	dirs    [2]string
	clock   time.Time
	next    int
	deleted []string
}

func newHistGen(tb testing.TB, seed uint64, dups bool) *histGen {
	tb.Helper()
	g := &histGen{tb: tb, rng: rand.New(rand.NewPCG(seed, 7)), dups: dups, clock: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	g.dirs[0] = gittest.Init(tb)
	for range 4 {
		g.add(0)
	}
	g.commit(0, "seed")
	g.dirs[1] = tb.TempDir()
	gittest.Git(tb, g.dirs[1], "clone", "-q", g.dirs[0], ".")
	return g
}

// run makes n random steps.
func (g *histGen) run(n int) {
	for range n {
		k := 0
		if g.rng.IntN(3) == 0 {
			k = 1
		}
		if g.rng.IntN(7) == 0 {
			g.merge(k)
			continue
		}
		ops := 1 + g.rng.IntN(2)
		var what []string
		for range ops {
			what = append(what, g.step(k))
		}
		g.commit(k, strings.Join(what, ", "))
	}
	g.merge(0)
}

func (g *histGen) tick() {
	switch r := g.rng.IntN(20); {
	case r == 0:
		g.clock = g.clock.Add(-30 * time.Second)
	case r < 4:
		// the same second as the last commit
	default:
		g.clock = g.clock.Add(time.Duration(1+g.rng.IntN(600)) * time.Second)
	}
}

func (g *histGen) commit(k int, msg string) {
	g.tick()
	gittest.Git(g.tb, g.dirs[k], "add", "-A")
	gitAt(g.tb, g.dirs[k], g.clock, "commit", "-q", "--allow-empty", "-m", msg)
}

// files lists the notes in clone k.
func (g *histGen) files(k int) []string {
	return gitLines(g.tb, g.dirs[k], "ls-files")
}

// step changes clone k's worktree and says how.
func (g *histGen) step(k int) string {
	files := g.files(k)
	switch r := g.rng.IntN(20); {
	case r < 9 && len(files) > 0:
		f := files[g.rng.IntN(len(files))]
		g.edit(k, f, 1+g.rng.IntN(3))
		return "edit " + f
	case r < 12 || len(files) < 3:
		return "add " + g.add(k)
	case r < 14:
		f := files[g.rng.IntN(len(files))]
		gittest.Git(g.tb, g.dirs[k], "rm", "-q", "-f", f)
		g.deleted = append(g.deleted, f)
		return "delete " + f
	case r < 15 && len(g.deleted) > 0:
		f := g.deleted[g.rng.IntN(len(g.deleted))]
		if slices.Contains(files, f) {
			return "edit nothing"
		}
		g.write(k, f, g.lines(3+g.rng.IntN(5)))
		return "re-create " + f
	default:
		f := files[g.rng.IntN(len(files))]
		to := g.newPath(f)
		if err := os.MkdirAll(filepath.Join(g.dirs[k], path.Dir(to)), 0o755); err != nil {
			g.tb.Fatal(err)
		}
		gittest.Git(g.tb, g.dirs[k], "mv", f, to)
		switch g.rng.IntN(3) {
		case 1:
			g.edit(k, to, 1) // still similar
		case 2:
			g.edit(k, to, 12) // mostly rewritten
		}
		return "rename " + f + " to " + to
	}
}

// merge brings the other clone's branch into clone k; conflicts are
// resolved by taking either side, and some merges change a file too.
func (g *histGen) merge(k int) {
	dir, other := g.dirs[k], g.dirs[1-k]
	gittest.Git(g.tb, dir, "fetch", "-q", other, "main")
	g.tick()
	side := []string{"-X", "ours"}
	if g.rng.IntN(2) == 0 {
		side = []string{"-X", "theirs"}
	}
	args := append([]string{"merge", "-q", "--no-edit", "--no-commit"}, side...)
	if g.rng.IntN(3) == 0 {
		args = append(args, "--no-ff")
	}
	args = append(args, "FETCH_HEAD")
	cmd := append([]string{"-c", "merge.renames=true"}, args...)
	if _, err := gittest.TryGit(dir, cmd...); err != nil {
		// modify/delete and similar conflicts: keep what the worktree has.
		for _, f := range gitLines(g.tb, dir, "diff", "--name-only", "--diff-filter=U") {
			if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
				gittest.Git(g.tb, dir, "add", f)
			} else {
				gittest.Git(g.tb, dir, "rm", "-q", "--cached", f)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "MERGE_HEAD")); err != nil {
		return // a fast-forward, or nothing to merge
	}
	if files := g.files(k); g.rng.IntN(4) == 0 && len(files) > 0 {
		g.edit(k, files[g.rng.IntN(len(files))], 1)
	}
	gittest.Git(g.tb, dir, "add", "-A")
	gitAt(g.tb, dir, g.clock, "commit", "-q", "-m", "merge")
}

// add writes a new note and returns its path.
func (g *histGen) add(k int) string {
	g.next++
	f := fmt.Sprintf("%s/note-%d.md", []string{"a", "b", "a/c"}[g.rng.IntN(3)], g.next)
	g.write(k, f, g.lines(4+g.rng.IntN(8)))
	return f
}

// newPath returns a new path for f: another folder with the same name, or
// a new name in the same folder.
func (g *histGen) newPath(f string) string {
	g.next++
	if g.rng.IntN(2) == 0 {
		return fmt.Sprintf("moved-%d/%s", g.next, path.Base(f))
	}
	return fmt.Sprintf("%s/renamed-%d.md", path.Dir(f), g.next)
}

// edit changes n lines of a note: replacing, inserting or deleting.
func (g *histGen) edit(k int, f string, n int) {
	b, err := os.ReadFile(filepath.Join(g.dirs[k], f))
	if err != nil {
		g.tb.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for range n {
		i := g.rng.IntN(len(lines) + 1)
		switch r := g.rng.IntN(3); {
		case r == 0 && i < len(lines):
			lines[i] = g.line()
		case r == 1 && i < len(lines) && len(lines) > 1:
			lines = slices.Delete(lines, i, i+1)
		default:
			lines = slices.Insert(lines, i, g.line())
		}
	}
	g.write(k, f, lines)
}

func (g *histGen) write(k int, f string, lines []string) {
	gittest.WriteFiles(g.tb, g.dirs[k], map[string]string{f: strings.Join(lines, "")})
}

// line returns a new line; with dups, sometimes a blank or a common one.
func (g *histGen) line() string {
	g.next++
	switch r := g.rng.IntN(8); {
	case r == 0 && g.dups:
		return "\n"
	case r == 1 && g.dups:
		return "- [ ] todo\n"
	}
	return fmt.Sprintf("line %d of the wiki\n", g.next)
}

func (g *histGen) lines(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = g.line()
	}
	return out
}
