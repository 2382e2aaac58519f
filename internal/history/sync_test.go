package history_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/history"
	"github.com/wikid/wikid/internal/wiki"
)

// smallRepo is a checkout with a short history of two notes.
func smallRepo(t *testing.T) string {
	t.Helper()
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "one", map[string]string{"a.md": "a\n", "b.md": "b\n"})
	gittest.Commit(t, dir, "two", map[string]string{"a.md": "a\na2\n"})
	gittest.Git(t, dir, "mv", "b.md", "c.md")
	gittest.Commit(t, dir, "three", nil)
	return dir
}

// checkAll compares the history of every file and the commit list with git.
func checkAll(t *testing.T, x *history.Index, dir string) {
	t.Helper()
	head := syncHead(t, x, dir)
	ctx := context.Background()
	for _, f := range gitLines(t, dir, "log", "--format=", "--name-only", "--no-renames") {
		revs, err := x.Log(ctx, head, f, true)
		if err != nil {
			t.Fatal(err)
		}
		if d := sameList(ids(revs), gitLines(t, dir, "log", "--follow", "--format=%H", "--", f)); d != "" {
			t.Errorf("Log(%s): %s", f, d)
		}
	}
	_, total, _, err := x.Commits(ctx, head, wiki.CommitFilter{}, "", 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(gitLines(t, dir, "rev-list", "HEAD")); total != want {
		t.Errorf("%d commits, git has %d", total, want)
	}
}

func TestIndex_Sync(t *testing.T) {
	ctx := context.Background()
	t.Run("reopen and extend", func(t *testing.T) {
		dir := smallRepo(t)
		x, _ := openIndex(t, dir)
		checkAll(t, x, dir)
		x.Close(ctx)
		if err := x.Sync(ctx, "0000000000000000000000000000000000000000"); !errors.Is(err, history.ErrClosed) {
			t.Errorf("Sync after Close: %v", err)
		}
		gittest.Commit(t, dir, "four", map[string]string{"c.md": "b\nc\n"})
		y, _ := openIndex(t, dir)
		checkAll(t, y, dir)
	})
	t.Run("history rewritten", func(t *testing.T) {
		dir := smallRepo(t)
		x, _ := openIndex(t, dir)
		checkAll(t, x, dir)
		size := fileSize(t, dir)
		gittest.Git(t, dir, "reset", "-q", "--hard", "HEAD~2")
		checkAll(t, x, dir) // an ancestor: nothing dropped yet
		gittest.Commit(t, dir, "other two", map[string]string{"a.md": "a\nother\n"})
		checkAll(t, x, dir)
		if got := fileSize(t, dir); got >= size {
			t.Errorf("index file is %d bytes after dropping two commits and adding one, was %d", got, size)
		}
		y, _ := openIndex(t, dir)
		checkAll(t, y, dir)
	})
	t.Run("damaged file", func(t *testing.T) {
		for _, damage := range []struct {
			name string
			fn   func([]byte) []byte
		}{
			{"truncated", func(b []byte) []byte { return b[:len(b)-7] }},
			{"flipped byte", func(b []byte) []byte { b[len(b)/2] ^= 0x40; return b }},
			{"other format", func(b []byte) []byte { return append([]byte("something else\n"), b...) }},
			{"empty", func([]byte) []byte { return nil }},
		} {
			t.Run(damage.name, func(t *testing.T) {
				dir := smallRepo(t)
				x, _ := openIndex(t, dir)
				checkAll(t, x, dir)
				x.Close(ctx)
				file := filepath.Join(dir, ".git", "wikid", history.FileName)
				b, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, damage.fn(b), 0o644); err != nil {
					t.Fatal(err)
				}
				y, _ := openIndex(t, dir)
				checkAll(t, y, dir)
				y.Close(ctx)
				z, _ := openIndex(t, dir)
				checkAll(t, z, dir)
			})
		}
	})
	t.Run("two writers", func(t *testing.T) {
		dir := smallRepo(t)
		x, _ := openIndex(t, dir)
		y, _ := openIndex(t, dir)
		checkAll(t, x, dir)
		checkAll(t, y, dir) // appends the same commits again
		gittest.Commit(t, dir, "four", map[string]string{"a.md": "a\na2\na3\n"})
		checkAll(t, y, dir)
		z, _ := openIndex(t, dir)
		checkAll(t, z, dir)
	})
	t.Run("shallow clone", func(t *testing.T) {
		src := smallRepo(t)
		dir := t.TempDir()
		gittest.Git(t, dir, "clone", "-q", "--depth", "2", "file://"+src, ".")
		x, _ := openIndex(t, dir)
		checkAll(t, x, dir)
	})
	t.Run("unborn branch and unknown commits", func(t *testing.T) {
		dir := gittest.Init(t)
		x, _ := openIndex(t, dir)
		if err := x.Sync(ctx, ""); err != nil || x.Commit() != "" {
			t.Errorf("Sync(\"\") = %v, commit %q", err, x.Commit())
		}
		_, err := x.Log(ctx, "1111111111111111111111111111111111111111", "a.md", true)
		if !errors.Is(err, wiki.ErrNotFound) {
			t.Errorf("Log at an unknown commit: %v", err)
		}
		if err := x.Sync(ctx, "not a commit"); !errors.Is(err, wiki.ErrNotFound) {
			t.Errorf("Sync(garbage) = %v", err)
		}
		if err := x.Sync(ctx, "1111111111111111111111111111111111111111"); !errors.Is(err, wiki.ErrNotFound) {
			t.Errorf("Sync(unknown) = %v", err)
		}
	})
}

func fileSize(t *testing.T, dir string) int64 {
	t.Helper()
	fi, err := os.Stat(filepath.Join(dir, ".git", "wikid", history.FileName))
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

func TestIndex_Commits(t *testing.T) {
	dir := smallRepo(t)
	gittest.Commit(t, dir, "four\n\nbody\n\nWiki-Tool: edit_note\nWiki-Client: test/1", map[string]string{"notes/x.md": "x\n"})
	x, _ := openIndex(t, dir)
	head := syncHead(t, x, dir)
	ctx := context.Background()
	page, total, next, err := x.Commits(ctx, head, wiki.CommitFilter{}, "", 2)
	if err != nil || len(page) != 2 || total != 4 || next != page[1].ID {
		t.Fatalf("first page: %d commits, total %d, next %q, %v", len(page), total, next, err)
	}
	if c := page[0]; c.Tool != "edit_note" || c.Client != "test/1" || c.Subject != "four" {
		t.Errorf("newest commit = %+v", c.CommitSummary)
	}
	if f := page[1].Files; len(f) != 1 || f[0].Kind != wiki.ChangeRenamed || f[0].OldPath != "b.md" || f[0].Path != "c.md" {
		t.Errorf("rename commit files = %+v", f)
	}
	rest, _, next, err := x.Commits(ctx, head, wiki.CommitFilter{}, next, 5)
	if err != nil || len(rest) != 2 || next != "" || rest[1].Subject != "one" {
		t.Errorf("second page: %+v, next %q, %v", rest, next, err)
	}
	for _, tc := range []struct {
		f    wiki.CommitFilter
		want int
	}{
		{wiki.CommitFilter{Tool: "edit_note"}, 1},
		{wiki.CommitFilter{Author: "TEST AUTHOR <author@"}, 4},
		{wiki.CommitFilter{Author: "nobody"}, 0},
		{wiki.CommitFilter{Folder: "notes"}, 1},
		{wiki.CommitFilter{Files: []string{"a.md"}}, 2},
		{wiki.CommitFilter{Files: []string{"b.md"}}, 2},
	} {
		_, total, _, err := x.Commits(ctx, head, tc.f, "", 10)
		if err != nil || total != tc.want {
			t.Errorf("filter %+v: %d commits, want %d (%v)", tc.f, total, tc.want, err)
		}
	}
	if _, _, _, err := x.Commits(ctx, head, wiki.CommitFilter{}, strings.Repeat("2", 40), 1); !errors.Is(err, wiki.ErrNotFound) {
		t.Errorf("unknown cursor commit: %v", err)
	}
}
