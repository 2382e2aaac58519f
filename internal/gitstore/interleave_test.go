package gitstore

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// person commits files of their own with the git CLI in a loop, in the
// same checkout as the store, as someone working there would: `git add`
// then `git commit -q -m`. The loop runs in its own goroutine and never
// touches the testing.T; its results are read after stop.
type person struct {
	dir  string
	quit chan struct{}
	done chan struct{}

	subjects []string          // the commits git acknowledged, oldest first
	files    map[string]string // the files those commits wrote
	retries  int               // git commands retried on index.lock
	lostRef  int               // commits that lost the race for the branch
	err      error
}

// startPerson starts committing in dir.
func startPerson(dir string) *person {
	p := &person{dir: dir, quit: make(chan struct{}), done: make(chan struct{}), files: map[string]string{}}
	go p.run()
	return p
}

// stop ends the loop after the commit in progress; it may be called twice.
func (p *person) stop() {
	select {
	case <-p.quit:
	default:
		close(p.quit)
	}
	<-p.done
}

func (p *person) run() {
	defer close(p.done)
	for i := 0; ; i++ {
		select {
		case <-p.quit:
			return
		default:
		}
		name := fmt.Sprintf("theirs/t%03d.md", i)
		subject := fmt.Sprintf("by git %d", i)
		if p.err = p.commit(name, subject); p.err != nil {
			return
		}
		p.subjects = append(p.subjects, subject)
		p.files[name] = subject + "\n"
	}
}

// commit writes name and commits it with `git add` and `git commit`.
//
// `git commit` fails when the branch moved after it read HEAD ("cannot lock
// ref"). By then it has already written back the index it read before it
// took index.lock, which lacks a store commit that landed in between (see
// the package documentation): committing again would revert that commit.
// So the person resets the index to HEAD with `git read-tree --reset HEAD`
// (which, unlike `git reset`, reads HEAD under index.lock), stages the file
// again and retries (TestStore_Commit_InGitCommitWindow shows the steps).
func (p *person) commit(name, subject string) error {
	full := filepath.Join(p.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(full, []byte(subject+"\n"), 0o644); err != nil {
		return err
	}
	if _, err := p.git("add", name); err != nil {
		return err
	}
	for {
		lost, err := p.git("commit", "-q", "-m", subject)
		if err != nil || !lost {
			return err
		}
		p.lostRef++
		for _, args := range [][]string{{"read-tree", "--reset", "HEAD"}, {"add", name}} {
			if _, err := p.git(args...); err != nil {
				return err
			}
		}
	}
}

// git runs a git command, again while it fails because the store holds
// index.lock. It reports whether the command failed because the branch
// moved under it ("cannot lock ref"), and returns any other failure.
func (p *person) git(args ...string) (lostRef bool, err error) {
	for {
		out, err := gittest.TryGit(p.dir, args...)
		switch {
		case err == nil:
			return false, nil
		case strings.Contains(out, "cannot lock ref"):
			return true, nil
		case !strings.Contains(out, "index.lock"):
			return false, fmt.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		p.retries++
		time.Sleep(time.Millisecond)
	}
}

// TestStore_Commit_Interleaved commits through the store while a person
// runs `git add` and `git commit` in a loop in the same checkout. Every
// acknowledged commit of either side must be in the history, no commit of
// one side may change the other side's files (a `git commit` of an index
// that lacks the store's last commit would revert it), the last tree must
// have every file either side wrote, and the checkout must end up clean.
//
// The store's commits fail with ErrHeadMoved when git moved the branch
// since the store read HEAD, and are retried. They fail with a.md having
// staged changes while the index git wrote back before losing the race for
// the branch is waiting for the person's reset (see person.commit); they
// are retried then too. Any other failure fails the test: "a.md
// (modified)", in particular, means that git committed over a store commit.
func TestStore_Commit_Interleaved(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "a\n"})
	seed := rev(t, dir, "HEAD")
	s, err := Open(ctx, dir, Options{LockTimeout: 10 * time.Second, ForeignLockWait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)

	const ours = 30
	p := startPerson(dir)
	defer p.stop()
	var acked []string // our commits, oldest first
	want := map[string]string{}
	retries, staged := 0, 0
	for i := range ours {
		start := time.Now()
		for {
			head, err := s.Head(ctx)
			if err != nil {
				t.Fatal(err)
			}
			// A mutation prepares its change between reading HEAD and
			// committing: give git the chance to move the branch there.
			time.Sleep(time.Duration(i%4) * 2 * time.Millisecond)
			files := map[string]string{
				fmt.Sprintf("ours/o%03d.md", i): fmt.Sprintf("ours %d\n", i),
				"a.md":                          fmt.Sprintf("a %d\n", i),
			}
			id, err := s.Commit(ctx, request(head.Commit, fmt.Sprintf("ours %d", i), files))
			switch {
			case errors.Is(err, wiki.ErrHeadMoved):
				retries++
				continue
			case wiki.CodeOf(err) == wiki.CodeLocalChanges && strings.HasSuffix(err.Error(), "changes to a.md (staged changes)"):
				if staged++; time.Since(start) > time.Minute {
					t.Fatalf("commit %d: the index still has a.md staged after %s: %v", i, time.Since(start), err)
				}
				time.Sleep(2 * time.Millisecond)
				continue
			case err != nil:
				t.Fatalf("commit %d: %v", i, err)
			}
			acked = append(acked, id)
			maps.Copy(want, files)
			time.Sleep(5 * time.Millisecond)
			break
		}
	}
	p.stop()
	if p.err != nil {
		t.Fatal(p.err)
	}
	t.Logf("%d commits by the store (retried: %d on a moved branch, %d on a stale index), "+
		"%d by git (%d commands retried on index.lock, %d commits on a moved branch)",
		len(acked), retries, staged, len(p.subjects), p.retries, p.lostRef)
	if len(p.subjects) == 0 {
		t.Fatal("git made no commit while the store committed")
	}

	// A linear history of exactly the acknowledged commits.
	if m := gittest.Git(t, dir, "rev-list", "--merges", "HEAD"); m != "" {
		t.Errorf("merge commits in the history:\n%s", m)
	}
	all := strings.Fields(gittest.Git(t, dir, "rev-list", "HEAD"))
	if n := 1 + len(acked) + len(p.subjects); len(all) != n {
		t.Errorf("%d commits in the history, want %d (the seed, %d by the store, %d by git)",
			len(all), n, len(acked), len(p.subjects))
	}
	// Each side's files were changed by that side's commits only, each of
	// which changed them.
	if got := strings.Fields(gittest.Git(t, dir, "log", "--format=%H", "--", "a.md", "ours")); !slices.Equal(got, reversed(acked, seed)) {
		t.Errorf("commits that changed the store's files:\n%s\nwant the store's commits and the seed:\n%s",
			gittest.Git(t, dir, "log", "--format=%H %s", "--", "a.md", "ours"), strings.Join(reversed(acked, seed), "\n"))
	}
	theirs := strings.Split(strings.TrimSuffix(gittest.Git(t, dir, "log", "--format=%s", "--", "theirs"), "\n"), "\n")
	if !slices.Equal(theirs, reversed(p.subjects)) {
		t.Errorf("commits that changed git's files:\n%s\nwant git's commits:\n%s",
			strings.Join(theirs, "\n"), strings.Join(reversed(p.subjects), "\n"))
	}
	// The last tree has every file either side wrote, with the store's
	// last a.md.
	maps.Copy(want, p.files)
	if got := strings.Fields(gittest.Git(t, dir, "ls-tree", "-r", "--name-only", "HEAD")); !slices.Equal(got, slices.Sorted(maps.Keys(want))) {
		t.Errorf("HEAD has %v, want %v", got, slices.Sorted(maps.Keys(want)))
	}
	if got, w := gittest.Git(t, dir, "cat-file", "blob", "HEAD:a.md"), fmt.Sprintf("a %d\n", ours-1); got != w {
		t.Errorf("HEAD:a.md = %q, want %q", got, w)
	}
	checkCheckout(t, dir)
	checkDisk(t, dir, want)
}

// reversed returns the items newest first, then the extra ones.
func reversed(items []string, extra ...string) []string {
	r := slices.Clone(items)
	slices.Reverse(r)
	return append(r, extra...)
}
