package gitstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// TestStore_Commit_Interleaved commits through the store while `git commit`
// runs in a loop in the same checkout. Every acknowledged commit of either
// side must end up in the history, and the checkout must end up clean.
func TestStore_Commit_Interleaved(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "a\n"})
	s, err := Open(ctx, dir, Options{LockTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)

	const ours = 30
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var theirs []string // subjects git acknowledged
	var gitRetries, gitRefRetries int
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			name := fmt.Sprintf("theirs/t%03d.md", i)
			subject := fmt.Sprintf("by git %d", i)
			gittest.WriteFiles(t, dir, map[string]string{name: subject + "\n"})
			// git fails at once when wikid holds index.lock, and `git commit`
			// fails when the branch moved between its reading HEAD and its
			// taking the index lock ("cannot lock ref"): retry, as a person
			// would.
			for _, args := range [][]string{{"add", name}, {"commit", "-q", "-m", subject}} {
				for {
					out, err := gittest.TryGit(dir, args...)
					if err == nil {
						break
					}
					if !strings.Contains(out, "index.lock") && !strings.Contains(out, "cannot lock ref") {
						t.Errorf("git %s: %v\n%s", args[0], err, out)
						return
					}
					if strings.Contains(out, "cannot lock ref") {
						gitRefRetries++
					}
					gitRetries++
					time.Sleep(time.Millisecond)
				}
			}
			theirs = append(theirs, subject)
		}
	}()

	var acked []string
	retries := 0
	for i := range ours {
		for {
			head, err := s.Head(ctx)
			if err != nil {
				t.Fatal(err)
			}
			// A mutation prepares its change between reading HEAD and
			// committing: give git the chance to move the branch there.
			time.Sleep(time.Duration(i%4) * 2 * time.Millisecond)
			req := request(head.Commit, fmt.Sprintf("ours %d", i), map[string]string{
				fmt.Sprintf("ours/o%03d.md", i): fmt.Sprintf("ours %d\n", i),
				"a.md":                          fmt.Sprintf("a %d\n", i),
			})
			id, err := s.Commit(ctx, req)
			if errors.Is(err, wiki.ErrHeadMoved) {
				retries++
				continue
			}
			if err != nil {
				t.Fatalf("commit %d: %v", i, err)
			}
			acked = append(acked, id)
			time.Sleep(5 * time.Millisecond)
			break
		}
	}
	close(stop)
	wg.Wait()
	t.Logf("%d commits by the store (%d retries on a moved branch), %d by git (%d retries, %d on a moved branch)",
		len(acked), retries, len(theirs), gitRetries, gitRefRetries)

	history := gittest.Git(t, dir, "log", "--format=%H %s")
	for _, id := range acked {
		if !strings.Contains(history, id+" ours ") {
			t.Errorf("acknowledged commit %s is not in the history", id)
		}
	}
	for _, subject := range theirs {
		if !strings.Contains(history, " "+subject+"\n") {
			t.Errorf("git's commit %q is not in the history", subject)
		}
	}
	checkCheckout(t, dir)
	checkDisk(t, dir, map[string]string{"a.md": fmt.Sprintf("a %d\n", ours-1), "ours/o000.md": "ours 0\n"})
}
