package gitstore

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
)

// TestIndex_RoundTrip reads indexes written by git and writes them back
// without changes: the bytes must be identical, unless an extension that
// is dropped on every rewrite was there.
func TestIndex_RoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string)
		drops bool // an extension is dropped
	}{
		{name: "version 2 with a cache tree", setup: func(t *testing.T, dir string) {}},
		{name: "version 3", setup: func(t *testing.T, dir string) {
			gittest.Git(t, dir, "update-index", "--skip-worktree", "a/b.md")
		}},
		{name: "version 4", setup: func(t *testing.T, dir string) {
			gittest.Git(t, dir, "update-index", "--index-version", "4")
		}},
		{name: "path longer than 4095 bytes", setup: func(t *testing.T, dir string) {
			long := strings.Repeat(strings.Repeat("x", 200)+"/", 21) + "long.md"
			blob := rev(t, dir, "HEAD:a.md")
			gittest.Git(t, dir, "update-index", "--add", "--cacheinfo", "100644,"+blob+","+long)
		}},
		{name: "path longer than 4095 bytes, version 4", setup: func(t *testing.T, dir string) {
			long := strings.Repeat(strings.Repeat("x", 200)+"/", 21) + "long.md"
			blob := rev(t, dir, "HEAD:a.md")
			gittest.Git(t, dir, "update-index", "--add", "--cacheinfo", "100644,"+blob+","+long)
			gittest.Git(t, dir, "update-index", "--index-version", "4")
		}},
		{name: "untracked cache", setup: func(t *testing.T, dir string) {
			gittest.Git(t, dir, "config", "core.untrackedCache", "true")
			gittest.Git(t, dir, "update-index", "--untracked-cache")
			gittest.Status(t, dir)
		}, drops: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := seeded(t, map[string]string{"a.md": "a\n", "a/b.md": "b\n", "a-c.md": "c\n", "z/y/x.md": "x\n"})
			tc.setup(t, dir)
			name := filepath.Join(dir, ".git", "index")
			want, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			ix, err := readIndex(name, nil)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(strings.Split(gittest.Git(t, dir, "ls-files", "-z"), "\x00")) - 1; len(ix.entries) != n {
				t.Errorf("%d entries, git lists %d", len(ix.entries), n)
			}
			got := ix.rewrite(nil, nil)
			if !tc.drops {
				if !bytes.Equal(got, want) {
					t.Errorf("rewritten index differs (%d bytes, want %d)", len(got), len(want))
				}
				return
			}
			// An extension was dropped: git must read the rest as before.
			staged := gittest.Git(t, dir, "ls-files", "-s", "--debug")
			if err := os.WriteFile(name, got, 0o644); err != nil {
				t.Fatal(err)
			}
			if after := gittest.Git(t, dir, "ls-files", "-s", "--debug"); after != staged {
				t.Errorf("git ls-files after the rewrite:\n%s\nbefore:\n%s", after, staged)
			}
			if st := gittest.Status(t, dir); st != "" {
				t.Errorf("status:\n%s", st)
			}
		})
	}
}

func TestIndex_Varint(t *testing.T) {
	for _, v := range []uint64{0, 1, 127, 128, 129, 255, 16383, 16384, 16511, 16512, 1 << 20, 1<<40 + 7} {
		b := appendVarint(nil, v)
		got, n := readVarint(b)
		if got != v || n != len(b) {
			t.Errorf("varint %d: encoded %x, decoded %d (%d bytes)", v, b, got, n)
		}
	}
	// Git's own encoding of 128 is 0x80 0x00.
	if b := appendVarint(nil, 128); !bytes.Equal(b, []byte{0x80, 0x00}) {
		t.Errorf("128 encodes as %x", b)
	}
}

// TestIndex_CacheTree checks that a commit invalidates the cache tree on
// the touched paths only.
func TestIndex_CacheTree(t *testing.T) {
	dir := seeded(t, map[string]string{"a/b/c.md": "c\n", "a/d.md": "d\n", "keep/k.md": "k\n", "e.md": "e\n"})
	s := openStore(t, dir)
	mustCommit(t, s, request(rev(t, dir, "HEAD"), "edit", map[string]string{"a/b/c.md": "C\n"}))
	ix, err := readIndex(filepath.Join(dir, ".git", "index"), nil)
	if err != nil {
		t.Fatal(err)
	}
	var tree []byte
	for _, x := range ix.exts {
		if x.sig == "TREE" {
			tree = x.data
		}
	}
	for _, node := range []struct {
		name  string
		valid bool
	}{{"\x00-1 ", false}, {"a\x00-1 ", false}, {"b\x00-1 ", false}, {"keep\x001 0\n", true}} {
		if bytes.Contains(tree, []byte(node.name)) != true {
			t.Errorf("cache tree %q has no node %q", tree, node.name)
		}
	}
	checkCheckout(t, dir)
}

// TestIndex_SmudgeRacy makes an entry racily clean (its stat data matches
// the file, which changed within the second the index was written) and
// checks that a commit touching another file keeps git seeing the change.
func TestIndex_SmudgeRacy(t *testing.T) {
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
	ix, err := readIndex(index, nil)
	if err != nil {
		tb.Fatal(err)
	}
	fi, err := os.Lstat(full)
	if err != nil {
		tb.Fatal(err)
	}
	lo, _ := ix.find(name)
	meta := ix.meta(ix.entries[lo])
	for k, v := range statData(fi) {
		if k != fieldMode {
			binary.BigEndian.PutUint32(meta[4*k:], v)
		}
	}
	if err := os.WriteFile(index, ix.rewrite(nil, nil), 0o644); err != nil {
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
