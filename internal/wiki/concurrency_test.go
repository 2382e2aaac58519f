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

// TestWiki_ConcurrentWriters runs 16 writers × 50 appends to 4 shared notes,
// half of them guarding each append with expected_version. Every success
// must be in history exactly once; every failure must be a CONFLICT.
func TestWiki_ConcurrentWriters(t *testing.T) {
	const writers, writes, notes = 16, 50, 4
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
func TestWiki_InterleavedWithGit(t *testing.T) {
	ctx := context.Background()
	origin := gittest.InitBare(t)
	seed := seeded(t, map[string]string{"README.md": "# Wiki\n"})
	gittest.Git(t, seed, "push", "-q", origin, "main")
	mine, theirs := t.TempDir(), t.TempDir()
	gittest.Git(t, mine, "clone", "-q", origin, ".")
	gittest.Git(t, theirs, "clone", "-q", origin, ".")
	w := openWiki(t, mine, nil)

	const rounds = 12
	done := make(chan struct{})
	var personCommits []string
	go func() {
		defer close(done)
		for i := 0; i < rounds; i++ {
			gittest.WriteFiles(t, mine, map[string]string{fmt.Sprintf("person/p%d.md", i): "by hand\n"})
			if retry(func() error {
				out, err := gittest.TryGit(mine, "add", fmt.Sprintf("person/p%d.md", i))
				return wrapOut(err, out)
			}) &&
				retry(func() error {
					out, err := gittest.TryGit(mine, "commit", "-q", "-m", fmt.Sprintf("person %d", i))
					err = wrapOut(err, out)
					return err
				}) {
				personCommits = append(personCommits, fmt.Sprintf("person %d", i))
			}
			if i%3 == 0 {
				gittest.Commit(t, theirs, fmt.Sprintf("remote %d", i), map[string]string{fmt.Sprintf("remote/r%d.md", i): "remote\n"})
				gittest.Git(t, theirs, "push", "-q", "origin", "main")
				retry(func() error {
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
		}
	}()
	type ack struct{ content, commit string }
	acked := map[string]ack{} // path → what wikid acknowledged
	// wikid writes until the person is done, pausing a little so that the
	// person's git commands get their turn.
	for i := 0; ; i++ {
		select {
		case <-done:
			goto check
		case <-time.After(2 * time.Millisecond):
		}
		path, content := fmt.Sprintf("wikid/w%d", i), fmt.Sprintf("write %d\n", i)
		res, err := w.Write(ctx, wiki.WriteRequest{Path: path, Content: content, Mutation: wiki.Mutation{Caller: cli}})
		if err != nil {
			t.Logf("write %s: %v", path, err)
			continue
		}
		acked[path] = ack{content, res.Commit}
	}
check:
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
	t.Logf("%d wikid writes, %d person commits; %d wikid notes dropped from HEAD by git commands racing on the index", len(acked), len(personCommits), dropped)
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
