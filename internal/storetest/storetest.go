// Package storetest is the conformance suite every derived store runs (the
// search index, the history index, the link graph, the vectors): a store
// brought commit by commit through a history of adds, edits, renames,
// deletes, attachments and a merge holds what a store built from nothing
// at the last commit holds, and an apply that fails at one of its first
// reads of the repository (a build from nothing at its first three, one
// commit's apply at its first) leaves the store where it was, from where
// the next apply brings it to the same end. It drives the stores through a real wiki over real repositories,
// made and checked with the git CLI.
package storetest

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/history"
	"github.com/wikid/wikid/internal/index"
	"github.com/wikid/wikid/internal/wiki"
)

// Case is a derived store under test.
type Case struct {
	// New returns a new, empty store that reads the repository through
	// store and keeps its files, if any, under dir (see InDir).
	New func(tb testing.TB, store wiki.Store, dir string) wiki.DerivedStore
	// Dump returns everything the store holds, in a canonical order, so
	// that two stores of the same commit compare equal as strings.
	Dump func(tb testing.TB, s wiki.DerivedStore) string
}

// InDir returns store with its Dir, where derived stores keep their files,
// at dir: for a second store of a kind in one repository.
func InDir(store wiki.Store, dir string) wiki.Store { return dirStore{store, dir} }

type dirStore struct {
	wiki.Store
	dir string
}

func (s dirStore) Dir() string { return s.dir }

// Run runs the suite on c: "apply equals rebuild" and "an interrupted
// apply resumes".
func Run(t *testing.T, c Case) {
	t.Run("apply equals rebuild", func(t *testing.T) {
		dir := gittest.Init(t)
		steps[0](t, dir)
		h := newHarness(t, c, dir, 0)
		for i, step := range steps[1:] {
			step(t, h.dir)
			h.catchUp(t)
			want := rebuilt(t, c, h.dir)
			if got := c.Dump(t, h.store); got != want {
				t.Fatalf("after step %d, applied commit by commit:\n%s\nbuilt from nothing:\n%s", i+2, got, want)
			}
		}
	})
	t.Run("an interrupted apply resumes", func(t *testing.T) {
		dir := gittest.Init(t)
		for _, step := range steps[:len(steps)-1] {
			step(t, dir)
		}
		want := rebuilt(t, c, dir)
		// A build from nothing, interrupted at its first reads.
		for k := 1; k <= 3; k++ {
			h := newHarness(t, c, dir, k)
			h.interrupted(t, k, "", want)
		}
		// An apply of one commit, interrupted at its first read.
		h := newHarness(t, c, dir, 0)
		from := h.store.Commit()
		h.reads.arm(1)
		steps[len(steps)-1](t, dir)
		h.interrupted(t, 1, from, rebuilt(t, c, dir))
	})
}

// harness is a wiki with the store under test among its derived stores.
type harness struct {
	c     Case
	dir   string
	w     *wiki.Wiki
	store wiki.DerivedStore
	reads *countingStore
}

// newHarness opens a wiki over the repository at dir with the store under
// test, and brings it to HEAD; with armAt, the store's reads fail from the
// armAt-th on, and it is left as the failure leaves it.
func newHarness(tb testing.TB, c Case, dir string, armAt int) *harness {
	tb.Helper()
	ctx := context.Background()
	gs, err := gitstore.Open(ctx, dir, gitstore.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	reads := &countingStore{Store: gs, at: armAt}
	s := c.New(tb, reads, tb.TempDir())
	idx, err := index.Open(ctx, filepath.Join(tb.TempDir(), "index"), index.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	hist, err := history.Open(ctx, InDir(gs, tb.TempDir()), history.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	deps := wiki.Deps{Store: reads, Index: idx, History: hist, Graph: graph.New(), Derived: []wiki.DerivedStore{&armed{DerivedStore: s, reads: reads}}}
	w, err := wiki.Open(ctx, deps, wiki.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { w.Close(context.Background()) })
	h := &harness{c: c, dir: dir, w: w, store: s, reads: reads}
	if armAt == 0 {
		h.catchUp(tb)
	}
	return h
}

// catchUp brings every store of the wiki to HEAD.
func (h *harness) catchUp(tb testing.TB) {
	tb.Helper()
	if err := h.w.CatchUp(context.Background()); err != nil {
		tb.Fatal(err)
	}
	if head := gittest.Git(tb, h.dir, "rev-parse", "HEAD"); h.store.Commit() != strings.TrimSpace(head) {
		tb.Fatalf("the store is at %q, HEAD at %s", h.store.Commit(), head)
	}
}

// interrupted brings the wiki to HEAD with the store's reads armed to
// fail from the k-th on, checks that the store is still at from ("" for
// nothing), then lets the apply run again and checks that it ends as want.
func (h *harness) interrupted(tb testing.TB, k int, from, want string) {
	tb.Helper()
	err := h.w.CatchUp(context.Background())
	h.reads.disarm()
	if !errors.Is(err, errInterrupted) {
		if k == 1 {
			tb.Fatalf("an apply that fails at its first read of the repository: %v", err)
		}
		return // the apply reads fewer than k times
	}
	if got := h.store.Commit(); got != from {
		tb.Fatalf("interrupted at read %d, the store is at %q, want %q", k, got, from)
	}
	h.catchUp(tb)
	if got := h.c.Dump(tb, h.store); got != want {
		tb.Fatalf("interrupted at read %d, then applied again:\n%s\nbuilt from nothing:\n%s", k, got, want)
	}
}

// rebuilt returns the dump of a store built from nothing at the HEAD of
// the repository at dir, in a clone of its own.
func rebuilt(tb testing.TB, c Case, dir string) string {
	tb.Helper()
	clone := filepath.Join(tb.TempDir(), "clone")
	gittest.Git(tb, dir, "clone", "-q", "--no-hardlinks", dir, clone)
	h := newHarness(tb, c, clone, 0)
	return c.Dump(tb, h.store)
}

// errInterrupted is the error of a read the suite makes fail.
var errInterrupted = errors.New("storetest: interrupted")

// countingStore is a repository whose reads fail from the k-th on, while
// the store under test applies an update with the store armed.
type countingStore struct {
	wiki.Store
	mu     sync.Mutex
	active bool // the store under test is applying
	at, n  int  // fail from read at on (0: never); reads so far
}

func (s *countingStore) arm(k int) {
	s.mu.Lock()
	s.at, s.n = k, 0
	s.mu.Unlock()
}

func (s *countingStore) disarm() {
	s.mu.Lock()
	s.at = 0
	s.mu.Unlock()
}

func (s *countingStore) setActive(on bool) {
	s.mu.Lock()
	s.active = on
	s.mu.Unlock()
}

// read counts a read, and fails it when it is due.
func (s *countingStore) read() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.active || s.at == 0 {
		return nil
	}
	s.n++
	if s.n >= s.at {
		return errInterrupted
	}
	return nil
}

func (s *countingStore) Snapshot(ctx context.Context, commit string) (wiki.Snapshot, error) {
	snap, err := s.Store.Snapshot(ctx, commit)
	if err != nil {
		return nil, err
	}
	return countingSnapshot{snap, s}, nil
}

func (s *countingStore) Changes(ctx context.Context, from, to string) ([]wiki.FileChange, error) {
	if err := s.read(); err != nil {
		return nil, err
	}
	return s.Store.Changes(ctx, from, to)
}

func (s *countingStore) CommitInfo(ctx context.Context, commit string) (wiki.CommitInfo, error) {
	if err := s.read(); err != nil {
		return wiki.CommitInfo{}, err
	}
	return s.Store.CommitInfo(ctx, commit)
}

func (s *countingStore) ReadBlob(ctx context.Context, blob string) ([]byte, error) {
	if err := s.read(); err != nil {
		return nil, err
	}
	return s.Store.ReadBlob(ctx, blob)
}

type countingSnapshot struct {
	wiki.Snapshot
	s *countingStore
}

func (c countingSnapshot) Read(ctx context.Context, file string) (wiki.File, []byte, error) {
	if err := c.s.read(); err != nil {
		return wiki.File{}, nil, err
	}
	return c.Snapshot.Read(ctx, file)
}

// armed is the store under test, whose applies count the reads of the
// repository.
type armed struct {
	wiki.DerivedStore
	reads *countingStore
}

func (a *armed) Apply(ctx context.Context, u *wiki.Update) error {
	a.reads.setActive(true)
	defer a.reads.setActive(false)
	return a.DerivedStore.Apply(ctx, u)
}
