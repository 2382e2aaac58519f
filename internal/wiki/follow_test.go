package wiki_test

import (
	"context"
	"log/slog"
	"maps"
	"strings"
	"sync"
	"testing"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
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
	return nil
}

func (s *titleStore) snapshot() (string, map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.commit, maps.Clone(s.titles)
}

// TestFollow_DerivedStore follows a store of the test's own: it is built
// from HEAD, takes the wiki's commits before they return, catches up with
// commits made by git, and is rebuilt when history is rewritten.
func TestFollow_DerivedStore(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "# Alpha\n", "b/c.md": "---\ntitle: Charlie\n---\ntext\n", "img.png": "png"})
	store, err := gitstore.Open(ctx, dir, gitstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := &titleStore{titles: map[string]string{}}
	w, err := wiki.Open(ctx, wiki.Deps{Store: store, Derived: []wiki.DerivedStore{ts}}, wiki.Options{
		Author: wiki.Identity{Name: "Ada", Email: "ada@example.com"},
		Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(ctx)
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
	want("after a write, without waiting", map[string]string{"a": "Alpha", "b/c": "Charlie", "d": "Delta"})

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
