package wiki_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

func TestWiki_Watch(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "# A\n", "b.md": "# B\n"})
	w := openWiki(t, dir, nil)
	moves := make(chan wiki.HeadMove, 10)
	stop := w.Watch(func(m wiki.HeadMove) { moves <- m })
	defer stop()
	next := func(t *testing.T) wiki.HeadMove {
		t.Helper()
		select {
		case m := <-moves:
			return m
		case <-time.After(10 * time.Second):
			t.Fatal("no move of HEAD reported within 10 s")
			return wiki.HeadMove{}
		}
	}

	t.Run("the wiki's commit", func(t *testing.T) {
		res, err := w.Write(ctx, wiki.WriteRequest{Path: "c", Content: "# C\n"})
		if err != nil {
			t.Fatal(err)
		}
		m := next(t)
		if m.To != res.Commit || !slices.Equal(m.Notes, []wiki.NoteMove{{Path: "c", Change: wiki.ChangeAdded}}) || !m.Added() {
			t.Errorf("move %+v, want c added in %s", m, res.Commit)
		}
	})
	t.Run("a git commit in the checkout", func(t *testing.T) {
		gittest.Git(t, dir, "rm", "-q", "b.md")
		head := gittest.Commit(t, dir, "by hand", map[string]string{"a.md": "# A\n\nmore\n"})
		m := next(t)
		want := []wiki.NoteMove{{Path: "a", Change: wiki.ChangeModified}, {Path: "b", Change: wiki.ChangeDeleted}}
		if m.To != head || !slices.Equal(m.Notes, want) {
			t.Errorf("move %+v, want %v to %s", m, want, head)
		}
	})
	t.Run("stopped", func(t *testing.T) {
		stop()
		if _, err := w.Write(ctx, wiki.WriteRequest{Path: "d", Content: "# D\n"}); err != nil {
			t.Fatal(err)
		}
		select {
		case m := <-moves:
			t.Errorf("move %+v reported after the watch stopped", m)
		case <-time.After(2 * wiki.WatchEvery):
		}
	})
}
