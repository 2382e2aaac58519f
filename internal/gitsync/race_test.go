package gitsync_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gitsync"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// TestGuard_RaceWithGit has 8 writers create and edit notes through the
// wiki while a person, in the same checkout, commits with git commit -a,
// pulls from a second clone and runs git gc --auto, for a bounded time,
// with the guard running as in the daemon. Git reads the index without its
// lock, so the person's commits can drop what wikid just committed; at the
// end every acknowledged note must be at HEAD with its last acknowledged
// content.
func TestGuard_RaceWithGit(t *testing.T) {
	run := 8 * time.Second
	if testing.Short() {
		run = 2 * time.Second
	}
	origin := remoteWith(t, map[string]string{"README.md": "# Wiki\n", "person.md": "# Person\n"})
	m := cloneOf(t, origin)
	theirs := filepath.Join(t.TempDir(), "theirs")
	gittest.Git(t, filepath.Dir(theirs), "clone", "-q", "-b", "main", origin, theirs)
	lost, restored := raceWithPerson(t, m, run, func(i int) {
		os.WriteFile(filepath.Join(m.dir, "person.md"), []byte(fmt.Sprintf("# Person\n\nEdit %d.\n", i)), 0o644)
		gittest.TryGit(m.dir, "commit", "-q", "-a", "-m", fmt.Sprintf("person %d", i))
		if i%2 == 0 {
			gittest.Commit(t, theirs, fmt.Sprintf("remote %d", i), map[string]string{fmt.Sprintf("remote/r%d.md", i): "remote\n"})
			gittest.TryGit(theirs, "push", "-q", "origin", "main")
			if _, err := gittest.TryGit(m.dir, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main"); err != nil {
				if _, err := os.Stat(filepath.Join(m.dir, ".git", "MERGE_HEAD")); err == nil {
					gittest.TryGit(m.dir, "commit", "-q", "--no-edit") // as a person concludes a merge
				}
			}
		}
		if i%10 == 0 {
			gittest.TryGit(m.dir, "gc", "--auto", "--quiet")
		}
	})
	t.Logf("%d not at HEAD as acknowledged; the guard restored %d: %s", lost, len(restored), strings.Join(restored, ", "))
}

// assistants has 8 writers create and edit notes through the wiki for run,
// and returns the last acknowledged content of every note they wrote. A
// failed call (LOCAL_CHANGES, LOCKED, CONFLICT, OTHER_BRANCH or NOT_FOUND
// while git holds the checkout) is skipped.
func assistants(ctx context.Context, m *machine, run time.Duration) map[string]string {
	var mu sync.Mutex
	acked := map[string]string{} // note file → last acknowledged content
	var wg sync.WaitGroup
	deadline := time.Now().Add(run)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; time.Now().Before(deadline); k++ {
				path := fmt.Sprintf("w%d/n%d", w, k/3)
				var res *wiki.Result
				var err error
				content := fmt.Sprintf("# Note %d %d\n", w, k/3)
				if k%3 == 0 {
					res, err = m.w.Write(ctx, wiki.WriteRequest{Path: path, Content: content})
				} else {
					mu.Lock()
					prev := acked[path+".md"]
					mu.Unlock()
					if prev == "" {
						continue
					}
					line := fmt.Sprintf("- edit %d\n", k)
					res, err = m.w.Edit(ctx, wiki.EditRequest{Path: path, Edits: []note.Edit{{Op: "append", Content: line}}})
					content = ""
					if err == nil {
						content = prev + line
					}
				}
				if err != nil {
					continue // LOCAL_CHANGES, LOCKED, CONFLICT or NOT_FOUND while git holds the checkout
				}
				if content != "" && res.Commit != "" {
					b, err := gittest.TryGit(m.dir, "show", res.Commit+":"+path+".md")
					if err == nil {
						mu.Lock()
						acked[path+".md"] = b
						mu.Unlock()
					}
				}
			}
		}()
	}
	wg.Wait()
	return acked
}

// checkAcked fails for every note not at HEAD with its last acknowledged
// content, and returns how many.
func checkAcked(t *testing.T, dir string, acked map[string]string) (lost int) {
	t.Helper()
	gittest.Fsck(t, dir)
	for file, want := range acked {
		got, err := gittest.TryGit(dir, "show", "HEAD:"+file)
		if err != nil || got != want {
			lost++
			t.Errorf("%s at HEAD: %q (%v), last acknowledged %q", file, got, err, want)
		}
	}
	return lost
}

// TestGuard_RaceWithStashAndBranches has 8 writers create and edit notes
// through the wiki while a person, in the same checkout, stashes an edit
// and pops it again (git stash resets the checkout to HEAD, and may take a
// commit that lands meanwhile off the branch) and checks out a new branch
// for a moment and comes back, with the guard running as in the daemon.
// Writes while the other branch is checked out fail with OTHER_BRANCH; at
// the end every acknowledged note must be at the branch's HEAD with its
// last acknowledged content. It runs for 8 s under CI or without -short.
func TestGuard_RaceWithStashAndBranches(t *testing.T) {
	run := 8 * time.Second
	if testing.Short() && os.Getenv("CI") == "" {
		run = 2 * time.Second
	}
	m := cloneOf(t, remoteWith(t, map[string]string{"README.md": "# Wiki\n", "person.md": "# Person\n"}))
	var stashes, switches int
	lost, restored := raceWithPerson(t, m, run, func(i int) {
		os.WriteFile(filepath.Join(m.dir, "person.md"), []byte(fmt.Sprintf("# Person\n\nDraft %d.\n", i)), 0o644)
		if _, err := gittest.TryGit(m.dir, "stash", "-q"); err == nil {
			stashes++
			time.Sleep(2 * time.Millisecond)
			retryGit(m.dir, "stash", "pop", "-q") // it fails while a wikid commit holds the index
		}
		branch := fmt.Sprintf("tmp%d", i)
		if _, err := gittest.TryGit(m.dir, "checkout", "-q", "-b", branch); err == nil {
			switches++
			time.Sleep(5 * time.Millisecond)
			retryGit(m.dir, "checkout", "-q", "main")
			gittest.TryGit(m.dir, "branch", "-q", "-D", branch)
		}
		os.WriteFile(filepath.Join(m.dir, "person.md"), []byte("# Person\n"), 0o644)
		gittest.TryGit(m.dir, "checkout", "-q", "--", "person.md")
	})
	if b, _ := gittest.TryGit(m.dir, "symbolic-ref", "--short", "HEAD"); strings.TrimSpace(b) != "main" {
		t.Errorf("the person left %q checked out", b)
	}
	t.Logf("%d stashes, %d branch switches, %d not at HEAD as acknowledged; the guard restored %d: %s",
		stashes, switches, lost, len(restored), strings.Join(restored, ", "))
}

// retryGit runs a git command until it succeeds, 50 times at most.
func retryGit(dir string, args ...string) {
	for k := 0; k < 50; k++ {
		if _, err := gittest.TryGit(dir, args...); err == nil {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// raceWithPerson runs the guard as the daemon does and 8 assistants (see
// assistants) for run, while person(0), person(1), ... run one after
// another in a goroutine of their own, as a person working in the same
// checkout. Then it lets the guard catch up, and fails for every
// acknowledged note not at HEAD with its last acknowledged content; it
// returns how many, and what the guard restored.
func raceWithPerson(t *testing.T, m *machine, run time.Duration, person func(i int)) (lost int, restored []string) {
	t.Helper()
	guard := gitsync.NewGuard(m.w, m.dir, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	guardDone := make(chan struct{})
	go func() { defer close(guardDone); guard.Run(ctx, 20*time.Millisecond) }()

	stop := make(chan struct{})
	personDone := make(chan struct{})
	go func() {
		defer close(personDone)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			person(i)
		}
	}()
	acked := assistants(ctx, m, run)
	close(stop)
	<-personDone
	// The guard catches up with the last moves of the branch, which the
	// wiki's watch reports within wiki.WatchEvery.
	time.Sleep(500*time.Millisecond + 2*wiki.WatchEvery)
	cancel()
	<-guardDone
	lost = checkAcked(t, m.dir, acked)
	t.Logf("%d notes acknowledged", len(acked))
	return lost, guard.Restored()
}
