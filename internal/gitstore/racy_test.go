package gitstore

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gitstore/internal/gitindex"
	"github.com/wikid/wikid/internal/gittest"
)

// TestStore_Commit_SmudgeRacy makes an entry racily clean (its stat data matches
// the file, which changed within the second the index was written) and
// checks that a commit touching another file keeps git seeing the change.
func TestStore_Commit_SmudgeRacy(t *testing.T) {
	dir := seeded(t, map[string]string{"x.md": "aaaa\n", "y.md": "y\n"})
	s := openStore(t, dir)
	makeRacy(t, dir, "x.md", "bbbb\n")
	mustCommit(t, s, request(rev(t, dir, "HEAD"), "edit", map[string]string{"y.md": "Y\n"}))
	if st := gittest.Status(t, dir); st != " M x.md\n" {
		t.Errorf("after: status %q, want x.md still modified", st)
	}
	if d := gittest.Git(t, dir, "diff", "--name-only"); d != "x.md\n" {
		t.Errorf("git diff: %q", d)
	}
}

// makeRacy changes the tracked file name to content (of the same size) and
// makes its index entry racily clean: the entry's stat data matches the
// file, and the index was written in the same second as the file, so git
// finds the change only by comparing contents.
func makeRacy(tb testing.TB, dir, name, content string) {
	tb.Helper()
	gittest.WriteFiles(tb, dir, map[string]string{name: content})
	full := filepath.Join(dir, filepath.FromSlash(name))
	past := time.Now().Add(-10 * time.Second)
	if err := os.Chtimes(full, past, past); err != nil {
		tb.Fatal(err)
	}
	index := filepath.Join(dir, ".git", "index")
	ix, err := gitindex.Read(index, nil)
	if err != nil {
		tb.Fatal(err)
	}
	fi, err := os.Lstat(full)
	if err != nil {
		tb.Fatal(err)
	}
	e, _ := ix.Lookup(name)
	b := ix.Rewrite([]gitindex.Update{{Path: name, Mode: e.Mode(), ID: e.ID(), Stat: fi}}, nil)
	if err := os.WriteFile(index, b, 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.Chtimes(index, fi.ModTime(), fi.ModTime()); err != nil {
		tb.Fatal(err)
	}
	// git diff-files sees the change (by content: the entry is racy) and,
	// unlike git status, does not rewrite the index.
	if d := gittest.Git(tb, dir, "diff-files", "--name-only"); d != name+"\n" {
		tb.Fatalf("git diff-files %q, want %s", d, name)
	}
}
