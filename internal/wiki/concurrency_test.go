package wiki_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// TestWiki_ConcurrentWriters runs 16 writers × 50 appends (8 with -short)
// to 4 shared notes, half of them guarding each append with
// expected_version. Every success must be in history exactly once; every
// failure must be a CONFLICT.
func TestWiki_ConcurrentWriters(t *testing.T) {
	const writers, notes = 16, 4
	writes := 50
	if testing.Short() {
		writes = 8
	}
	ctx := context.Background()
	files := map[string]string{}
	for i := range notes {
		files[fmt.Sprintf("shared/n%d.md", i)] = fmt.Sprintf("# Note %d\n", i)
	}
	dir := seeded(t, files)
	w := openWiki(t, dir, nil)

	var mu sync.Mutex
	acked := map[string]bool{} // line → acknowledged
	conflicts := 0
	var wg sync.WaitGroup
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			guarded := g%2 == 0
			for i := range writes {
				path := fmt.Sprintf("shared/n%d", (g+i)%notes)
				line := fmt.Sprintf("writer %d write %d", g, i)
				m := wiki.Mutation{Caller: cli}
				if guarded {
					r, err := w.Read(ctx, wiki.ReadRequest{Path: path, MetadataOnly: true})
					if err != nil {
						t.Errorf("read: %v", err)
						return
					}
					m.ExpectedVersion = r.Version
				}
				_, err := w.Edit(ctx, wiki.EditRequest{Path: path, Edits: []note.Edit{{Op: note.OpAppend, Content: line}}, Mutation: m})
				mu.Lock()
				switch {
				case err == nil:
					acked[line] = true
				case wiki.CodeOf(err) == wiki.CodeConflict && guarded:
					conflicts++
				default:
					t.Errorf("%s: %v", line, err)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()

	seen := map[string]int{}
	for i := range notes {
		content := gittest.Git(t, dir, "show", fmt.Sprintf("HEAD:shared/n%d.md", i))
		for _, l := range strings.Split(content, "\n") {
			if strings.HasPrefix(l, "writer ") {
				seen[l]++
			}
		}
	}
	for l := range acked {
		if seen[l] != 1 {
			t.Errorf("acknowledged %q appears %d times", l, seen[l])
		}
	}
	for l, n := range seen {
		if !acked[l] {
			t.Errorf("%q (%d times) in the notes but never acknowledged", l, n)
		}
	}
	if got, want := commitCount(t, dir), 1+len(acked); got != want {
		t.Errorf("%d commits, want %d (seed + one per success)", got, want)
	}
	checkRepo(t, dir)
	t.Logf("%d successes, %d conflicts", len(acked), conflicts)
}

// TestWiki_InterleavedWithGit writes through wikid while a person commits
// with the git CLI in the same checkout and pulls from a second clone.
// Every note wikid acknowledged must be in history in a commit of its own,
// no wikid commit may delete one, and no commit of the person's may be
// lost. The test runs in rounds, 40 or 8 with -short: in each, the person
// commits a note by hand (and every third round pulls a commit pushed from
// the other clone) while wikid writes 3 notes, each after a pause of 0 to
// 12 ms that shifts from round to round, so that wikid's commits fall at
// different points of the person's git commands. The work is a count, not
// a duration: a busy machine makes the test slower, never longer.
func TestWiki_InterleavedWithGit(t *testing.T) {
	rounds, writes := 40, 3
	if testing.Short() {
		rounds = 8
	}
	ctx := context.Background()
	origin := gittest.InitBare(t)
	seed := seeded(t, map[string]string{"README.md": "# Wiki\n"})
	gittest.Git(t, seed, "push", "-q", origin, "main")
	mine, theirs := t.TempDir(), t.TempDir()
	gittest.Git(t, mine, "clone", "-q", origin, ".")
	gittest.Git(t, theirs, "clone", "-q", origin, ".")
	w := openWiki(t, mine, nil)

	type ack struct{ content, commit string }
	acked := map[string]ack{} // path → what wikid acknowledged
	var personCommits []string
	failed, retried := 0, 0
	for i := range rounds {
		// wikid writes in a goroutine of its own while the person works
		// in the test's; the round ends when both are done.
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range writes {
				time.Sleep(time.Duration((i+j)%5) * 3 * time.Millisecond)
				n := i*writes + j
				path, content := fmt.Sprintf("wikid/w%d", n), fmt.Sprintf("write %d\n", n)
				res, err := w.Write(ctx, wiki.WriteRequest{Path: path, Content: content, Mutation: wiki.Mutation{Caller: cli}})
				if err != nil {
					t.Logf("write %s: %v", path, err)
					failed++
					continue
				}
				acked[path] = ack{content, res.Commit}
			}
		}()
		subject, r := personRound(t, mine, theirs, i)
		if subject != "" {
			personCommits = append(personCommits, subject)
		}
		retried += r
		wg.Wait()
	}

	gittest.Fsck(t, mine)
	dropped := 0
	for p, a := range acked {
		if _, err := gittest.TryGit(mine, "merge-base", "--is-ancestor", a.commit, "HEAD"); err != nil {
			t.Errorf("acknowledged commit %s (%s) is not in history", a.commit, p)
		}
		if got := gittest.Git(t, mine, "show", a.commit+":"+p+".md"); got != a.content {
			t.Errorf("commit %s has %s = %q, want %q", a.commit, p, got, a.content)
		}
		if files := gittest.Git(t, mine, "diff-tree", "-r", "--name-only", "--no-commit-id", a.commit+"^", a.commit); files != p+".md\n" {
			t.Errorf("wikid commit %s touched %q, want only %s.md", a.commit, files, p)
		}
		if _, err := gittest.TryGit(mine, "cat-file", "-e", "HEAD:"+p+".md"); err != nil {
			// Not at HEAD: only a git command that committed an index it read
			// before our write (git reads the index without its lock) may
			// have dropped it, never a wikid commit.
			dropped++
			by := gittest.Git(t, mine, "log", "--format=%H", "-m", "--diff-filter=D", a.commit+"..HEAD", "--", p+".md")
			for _, sha := range strings.Fields(by) {
				if strings.Contains(gittest.Git(t, mine, "show", "-s", "--format=%B", sha), "Wiki-Tool:") {
					t.Errorf("wikid commit %s deleted %s", sha, p)
				}
			}
		}
	}
	log := gittest.Git(t, mine, "log", "--format=%s")
	for _, c := range personCommits {
		if !strings.Contains(log, c+"\n") {
			t.Errorf("person's commit %q lost", c)
		}
	}
	if len(acked) == 0 {
		t.Fatal("no wikid write succeeded")
	}
	t.Logf("%d wikid writes (%d failed), %d person commits in %d rounds, git commands tried again %d times; "+
		"%d wikid notes dropped from HEAD by git commands racing on the index",
		len(acked), failed, len(personCommits), rounds, retried, dropped)
}

// personRound is round i of the person's work in the checkout mine: a note
// written and committed with git add and git commit, and every third round
// a commit made in the clone theirs, pushed, and fetched and merged into
// mine. It returns the subject of the person's commit, or "" when git kept
// failing on the index lock wikid held, and how many times git commands
// failed and were tried again.
func personRound(tb testing.TB, mine, theirs string, i int) (subject string, retried int) {
	tb.Helper()
	name := fmt.Sprintf("person/p%d.md", i)
	gittest.WriteFiles(tb, mine, map[string]string{name: "by hand\n"})
	// try retries f as retry does, counting its failures.
	try := func(f func() error) bool {
		return retry(func() error {
			err := f()
			if err != nil {
				retried++
			}
			return err
		})
	}
	committed := try(func() error {
		out, err := gittest.TryGit(mine, "add", name)
		return wrapOut(err, out)
	}) && try(func() error {
		out, err := gittest.TryGit(mine, "commit", "-q", "-m", fmt.Sprintf("person %d", i))
		return wrapOut(err, out)
	})
	if i%3 == 0 {
		gittest.Commit(tb, theirs, fmt.Sprintf("remote %d", i), map[string]string{fmt.Sprintf("remote/r%d.md", i): "remote\n"})
		gittest.Git(tb, theirs, "push", "-q", "origin", "main")
		try(func() error {
			out, err := gittest.TryGit(mine, "fetch", "-q", "origin")
			if err == nil {
				out, err = gittest.TryGit(mine, "merge", "-q", "--no-edit", "origin/main")
			}
			if err != nil && concludeMerge(mine) {
				return nil
			}
			return wrapOut(err, out)
		})
	}
	if committed {
		subject = fmt.Sprintf("person %d", i)
	}
	return subject, retried
}

// retry runs f until it succeeds, up to 100 times; git commands fail while
// another process holds a lock.
func retry(f func() error) bool {
	for range 100 {
		if f() == nil {
			return true
		}
		time.Sleep(5 * time.Millisecond)
	}
	return false
}

// concludeMerge commits a merge that a pull left in progress (its final ref
// update lost the race against a wikid commit), the way a person would.
func concludeMerge(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, ".git", "MERGE_HEAD")); err != nil {
		return false
	}
	return retry(func() error {
		out, err := gittest.TryGit(dir, "commit", "-q", "--no-edit")
		return wrapOut(err, out)
	})
}

func wrapOut(err error, out string) error {
	if err != nil {
		return fmt.Errorf("%w: %s", err, out)
	}
	return nil
}
