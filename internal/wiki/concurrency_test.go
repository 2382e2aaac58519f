package wiki_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

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
				case note.CodeOf(err) == note.CodeConflict && guarded:
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

	const rounds = 30
	done := make(chan struct{})
	var personCommits []string
	go func() {
		defer close(done)
		for i := 0; i < rounds; i++ {
			gittest.WriteFiles(t, mine, map[string]string{fmt.Sprintf("person/p%d.md", i): "by hand\n"})
			if retry(func() error { _, err := gittest.TryGit(mine, "add", fmt.Sprintf("person/p%d.md", i)); return err }) &&
				retry(func() error {
					_, err := gittest.TryGit(mine, "commit", "-q", "-m", fmt.Sprintf("person %d", i), "--", fmt.Sprintf("person/p%d.md", i))
					return err
				}) {
				personCommits = append(personCommits, fmt.Sprintf("person %d", i))
			}
			if i%3 == 0 {
				gittest.Commit(t, theirs, fmt.Sprintf("remote %d", i), map[string]string{fmt.Sprintf("remote/r%d.md", i): "remote\n"})
				gittest.Git(t, theirs, "push", "-q", "origin", "main")
				retry(func() error {
					_, err := gittest.TryGit(mine, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
					return err
				})
			}
		}
	}()
	acked := map[string]string{} // path → content
	for i := 0; ; i++ {
		select {
		case <-done:
			goto check
		default:
		}
		path, content := fmt.Sprintf("wikid/w%d", i), fmt.Sprintf("write %d\n", i)
		_, err := w.Write(ctx, wiki.WriteRequest{Path: path, Content: content, Mutation: wiki.Mutation{Caller: cli}})
		if err != nil {
			t.Logf("write %s: %v", path, err)
			continue
		}
		acked[path] = content
	}
check:
	gittest.Fsck(t, mine)
	for p, want := range acked {
		got, err := gittest.TryGit(mine, "show", "HEAD:"+p+".md")
		if err != nil || got != want {
			t.Errorf("acknowledged write %s lost from HEAD: %v %q", p, err, got)
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
	t.Logf("%d wikid writes, %d person commits, status:\n%s", len(acked), len(personCommits), gittest.Status(t, mine))
}

// retry runs f until it succeeds, up to 50 times; git commands fail while
// another process holds a lock.
func retry(f func() error) bool {
	for range 50 {
		if f() == nil {
			return true
		}
	}
	return false
}
