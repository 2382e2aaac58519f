package wiki_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/history"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// titleStore is a derived store of its own: the title of every note at
// its commit. It is what a new store (semantic search, say) adds: one type.
type titleStore struct {
	mu     sync.Mutex
	commit string
	titles map[string]string
	resets int
	// applies counts the updates, and lastChanges holds the last one's
	// changes.
	applies     int
	lastChanges []wiki.FileChange
}

func (s *titleStore) Name() string { return "title table" }

func (s *titleStore) Commit() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.commit
}

func (s *titleStore) Reset(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.commit, s.titles = "", map[string]string{}
	s.resets++
	return nil
}

func (s *titleStore) Apply(ctx context.Context, u *wiki.Update) error {
	changes, err := u.Changes(ctx)
	if err != nil {
		return err
	}
	next := map[string]string{}
	for _, ch := range changes {
		if ch.Delete {
			continue
		}
		n, _, ok, err := u.Note(ctx, ch.Path)
		if err != nil {
			return err
		}
		if ok {
			next[n.Path] = n.Title
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ch := range changes {
		if p, _, ok := note.SplitFileName(ch.Path); ok && ch.Delete {
			delete(s.titles, p)
		}
	}
	maps.Copy(s.titles, next)
	s.commit = u.To
	s.applies++
	s.lastChanges = changes
	return nil
}

func (s *titleStore) snapshot() (string, map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.commit, maps.Clone(s.titles)
}

// openTitled opens a wiki over dir that also keeps a titleStore in step.
func openTitled(t *testing.T, dir string) (*wiki.Wiki, *titleStore) {
	t.Helper()
	ts := &titleStore{titles: map[string]string{}}
	w := openWikiDeps(t, dir, nil, io.Discard, func(d *wiki.Deps) { d.Derived = []wiki.DerivedStore{ts} })
	return w, ts
}

// TestFollow_DerivedStore follows a store of the test's own: it is built
// from HEAD, takes the wiki's commits once they returned, catches up with
// commits made by git, and is rebuilt when history is rewritten.
func TestFollow_DerivedStore(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "# Alpha\n", "b/c.md": "---\ntitle: Charlie\n---\ntext\n", "img.png": "png"})
	w, ts := openTitled(t, dir)
	want := func(step string, titles map[string]string) {
		t.Helper()
		head := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
		commit, got := ts.snapshot()
		if commit != head || !maps.Equal(got, titles) {
			t.Fatalf("%s: store at %.7s with %v, want %.7s with %v", step, commit, got, head, titles)
		}
	}
	if err := w.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	want("built", map[string]string{"a": "Alpha", "b/c": "Charlie"})

	if _, err := w.Write(ctx, wiki.WriteRequest{Path: "d", Content: "# Delta\n"}); err != nil {
		t.Fatal(err)
	}
	if err := w.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	want("after a write", map[string]string{"a": "Alpha", "b/c": "Charlie", "d": "Delta"})

	gittest.Git(t, dir, "rm", "-q", "a.md")
	gittest.Commit(t, dir, "by git", map[string]string{"e.md": "# Echo\n"})
	if err := w.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	want("after git's commit", map[string]string{"b/c": "Charlie", "d": "Delta", "e": "Echo"})

	resets := ts.resets
	gittest.Git(t, dir, "reset", "-q", "--hard", "HEAD~2")
	gittest.Commit(t, dir, "rewritten", map[string]string{"f.md": "# Foxtrot\n"})
	if err := w.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	want("after a rewrite", map[string]string{"a": "Alpha", "b/c": "Charlie", "f": "Foxtrot"})
	if ts.resets != resets+1 {
		t.Errorf("rewritten history: %d resets, want 1", ts.resets-resets)
	}
}

// TestFollow_Burst makes a burst of writes, one right after the other:
// they reach a derived store as one update, from the commit before the
// burst to the last, with each file as the last commit left it, and a read
// after the burst waits for it.
func TestFollow_Burst(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "# Alpha\n", "b.md": "# Bravo\n"})
	w, ts := openTitled(t, dir)
	if err := w.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	ts.mu.Lock()
	applies, before := ts.applies, ts.commit
	ts.mu.Unlock()
	edits := []func() error{
		func() error { _, err := w.Write(ctx, wiki.WriteRequest{Path: "c", Content: "# Charlie\n"}); return err },
		func() error {
			_, err := w.Write(ctx, wiki.WriteRequest{Path: "a", Content: "# Alpha 2\n", Overwrite: true})
			return err
		},
		func() error { _, err := w.Write(ctx, wiki.WriteRequest{Path: "d", Content: "# Delta\n"}); return err },
		func() error {
			_, err := w.Write(ctx, wiki.WriteRequest{Path: "a", Content: "# Alpha 3\n", Overwrite: true})
			return err
		},
	}
	for _, edit := range edits {
		if err := edit(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	head := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	commit, titles := ts.snapshot()
	if want := map[string]string{"a": "Alpha 3", "b": "Bravo", "c": "Charlie", "d": "Delta"}; commit != head || !maps.Equal(titles, want) {
		t.Fatalf("after the burst: store at %.7s with %v, want %.7s with %v", commit, titles, head, want)
	}
	ts.mu.Lock()
	n, last := ts.applies-applies, ts.lastChanges
	ts.mu.Unlock()
	// The burst is one update unless the machine paused for longer than
	// the follower waits between two of its writes.
	if n == 1 {
		oldA := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", before+":a.md"))
		var got []string
		for _, ch := range last {
			got = append(got, fmt.Sprintf("%s delete=%v old=%v", ch.Path, ch.Delete, ch.OldBlob == oldA))
		}
		if want := []string{"a.md delete=false old=true", "c.md delete=false old=false", "d.md delete=false old=false"}; !slices.Equal(got, want) {
			t.Errorf("the burst's update: %q, want %q", got, want)
		}
	} else {
		t.Logf("the burst took %d updates", n)
	}
}

// countingStore is a repository that counts the tree diffs and the blob
// reads asked of it.
type countingStore struct {
	*gitstore.Store
	diffs, blobs atomic.Int64
}

func (s *countingStore) Changes(ctx context.Context, from, to string) ([]wiki.FileChange, error) {
	s.diffs.Add(1)
	return s.Store.Changes(ctx, from, to)
}

func (s *countingStore) ReadBlob(ctx context.Context, blob string) ([]byte, error) {
	s.blobs.Add(1)
	return s.Store.ReadBlob(ctx, blob)
}

// TestFollow_WikiCommitNotReadBack checks that a commit the wiki makes
// reaches every derived store, the history index included, as the changes
// it wrote: no store diffs the commit's trees or reads back a content it
// wrote, and a read after the write (CatchUp) waits for that rather than
// doing it again.
func TestFollow_WikiCommitNotReadBack(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "# A\n\n[[b]]\n", "b.md": "# B\n"})
	store, err := gitstore.Open(ctx, dir, gitstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs := &countingStore{Store: store}
	d := deps(t, store, nil, nil)
	hist, err := history.Open(ctx, cs, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d.Store, d.History = cs, hist
	w, err := wiki.Open(ctx, d, wiki.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(ctx)
	if err := w.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}

	for _, step := range []struct {
		name  string
		write func() (*wiki.Result, error)
		// blobs is how many contents the step may read: the old content of
		// an edited note, for the history's line counts.
		blobs int64
	}{
		{"a new note", func() (*wiki.Result, error) {
			return w.Write(ctx, wiki.WriteRequest{Path: "c", Content: "# C\n\n[[a]]\n"})
		}, 0},
		{"an edit", func() (*wiki.Result, error) {
			return w.Edit(ctx, wiki.EditRequest{Path: "c", Edits: []note.Edit{{Op: note.OpAppend, Content: "more"}}})
		}, 1},
	} {
		t.Run(step.name, func(t *testing.T) {
			cs.diffs.Store(0)
			cs.blobs.Store(0)
			res, err := step.write()
			if err != nil {
				t.Fatal(err)
			}
			if err := w.CatchUp(ctx); err != nil {
				t.Fatal(err)
			}
			if n := cs.diffs.Load(); n != 0 {
				t.Errorf("%d tree diffs, want none", n)
			}
			if n := cs.blobs.Load(); n > step.blobs {
				t.Errorf("%d blob reads, want at most %d", n, step.blobs)
			}
			for _, st := range []func() string{hist.Commit, d.Index.Commit, d.Graph.Commit} {
				if got := st(); got != res.Commit {
					t.Errorf("a store is at %.7s, want %.7s", got, res.Commit)
				}
			}
		})
	}
	// What the history index took from the changes is what git says.
	h, err := w.History(ctx, wiki.HistoryRequest{Path: "c"})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(gittest.Git(t, dir, "log", "--format=%H", "--numstat", "--", "c.md"))
	var got []string
	for _, r := range h.Revisions {
		got = append(got, r.Commit, fmt.Sprint(r.Additions), fmt.Sprint(r.Deletions), "c.md")
	}
	if !slices.Equal(got, want) {
		t.Errorf("history of c: %q, want %q (git log --numstat)", got, want)
	}
}

// TestFollow_IndexBuiltFirst opens a wiki on a repository with no derived
// state: the stores other than the history index are built after the
// search index, together; in a large wiki, one after another.
func TestFollow_IndexBuiltFirst(t *testing.T) {
	t.Run("together", func(t *testing.T) { testIndexBuiltFirst(t, false) })
	t.Run("one after another", func(t *testing.T) {
		defer wiki.SetSequentialBuild(300)()
		testIndexBuiltFirst(t, true)
	})
}

func testIndexBuiltFirst(t *testing.T, inTurn bool) {
	files := map[string]string{}
	for i := range 300 {
		files[fmt.Sprintf("n/%03d.md", i)] = fmt.Sprintf("# Note %d\n\nSee [[%03d]].\n", i, (i+1)%300)
	}
	dir := seeded(t, files)
	var running, together, early, started atomic.Int32
	observe := func() *observedStore {
		wait := 30 * time.Second
		if inTurn {
			wait = 100 * time.Millisecond
		}
		return &observedStore{titleStore: &titleStore{titles: map[string]string{}}, running: &running, together: &together, early: &early, started: &started, wait: wait}
	}
	a, b := observe(), observe()
	openWikiDeps(t, dir, nil, io.Discard, func(d *wiki.Deps) {
		a.index, b.index = d.Index, d.Index
		d.Derived = []wiki.DerivedStore{a, b}
	})
	// Wait without reading: a read that needs a store builds it at once.
	head := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	for a.Commit() != head || b.Commit() != head {
		time.Sleep(5 * time.Millisecond)
	}
	if n := early.Load(); n > 0 {
		t.Errorf("%d first builds of the test's stores started before the search index was built", n)
	}
	if n := together.Load(); (n > 0) == inTurn {
		t.Errorf("the test's stores were built together %d times; in turn: %t", n, inTurn)
	}
}

// observedStore is a titleStore whose first build checks that the search
// index was built before it, and counts the builds running at once.
type observedStore struct {
	*titleStore
	index                    wiki.Index
	running, together, early *atomic.Int32
	started                  *atomic.Int32 // first builds begun
	wait                     time.Duration // for the other build to start
}

func (s *observedStore) Apply(ctx context.Context, u *wiki.Update) error {
	if u.From != "" {
		return s.titleStore.Apply(ctx, u)
	}
	if s.index.Commit() != u.To {
		s.early.Add(1)
	}
	s.started.Add(1)
	if s.running.Add(1) > 1 {
		s.together.Add(1)
	}
	// Wait for the other to start: built together, it does, however
	// busy the machine; built in turn, it cannot, and the wait is short.
	for end := time.Now().Add(s.wait); s.started.Load() < 2 && time.Now().Before(end); {
		time.Sleep(time.Millisecond)
	}
	s.running.Add(-1)
	return s.titleStore.Apply(ctx, u)
}
