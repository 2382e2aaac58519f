package gitindex

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gittest"
)

// seeded returns a checkout with one commit of files.
func seeded(tb testing.TB, files map[string]string) string {
	tb.Helper()
	dir := gittest.Init(tb)
	gittest.Commit(tb, dir, "seed", files)
	return dir
}

// TestFile_Rewrite_RoundTrip reads indexes written by git and writes them
// back without changes: the bytes must be identical, unless an extension
// that is dropped on every rewrite was there.
func TestFile_Rewrite_RoundTrip(t *testing.T) {
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
			blob := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD:a.md"))
			gittest.Git(t, dir, "update-index", "--add", "--cacheinfo", "100644,"+blob+","+long)
		}},
		{name: "path longer than 4095 bytes, version 4", setup: func(t *testing.T, dir string) {
			long := strings.Repeat(strings.Repeat("x", 200)+"/", 21) + "long.md"
			blob := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD:a.md"))
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
			ix, err := Read(name, nil)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(strings.Split(gittest.Git(t, dir, "ls-files", "-z"), "\x00")) - 1; ix.Len() != n {
				t.Errorf("%d entries, git lists %d", ix.Len(), n)
			}
			got := ix.Rewrite(nil, nil)
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

// TestFile_Rewrite stages a written, a new and a deleted file, in each
// index version, and checks the index with git: what is staged, the stat
// data (git diff-files sees no change) and the cache tree, which must be
// invalidated on the touched paths only: git write-tree, which reuses the
// valid subtrees, must give the tree of the new files.
func TestFile_Rewrite(t *testing.T) {
	for _, version := range []string{"2", "3", "4"} {
		t.Run("version "+version, func(t *testing.T) {
			dir := seeded(t, map[string]string{"a/b/c.md": "c\n", "a/d.md": "d\n", "keep/k.md": "k\n", "e.md": "e\n"})
			gittest.Git(t, dir, "update-index", "--index-version", version)
			gittest.WriteFiles(t, dir, map[string]string{"a/b/c.md": "C\n", "a/new.md": "n\n"})
			if err := os.Remove(filepath.Join(dir, "e.md")); err != nil {
				t.Fatal(err)
			}
			var updates []Update
			for _, p := range []string{"a/new.md", "a/b/c.md"} {
				id := strings.TrimSpace(gittest.Git(t, dir, "hash-object", "-w", p))
				fi, err := os.Lstat(filepath.Join(dir, p))
				if err != nil {
					t.Fatal(err)
				}
				updates = append(updates, Update{Path: p, Mode: 0o100644, ID: plumbing.NewHash(id), Stat: fi})
			}
			updates = append(updates, Update{Path: "e.md", Delete: true})
			name := filepath.Join(dir, ".git", "index")
			ix, err := Read(name, nil)
			if err != nil {
				t.Fatal(err)
			}
			out := ix.Rewrite(updates, nil)
			if err := os.WriteFile(name, out, 0o644); err != nil {
				t.Fatal(err)
			}
			if got := gittest.Git(t, dir, "diff", "--cached", "--name-status"); got != "M\ta/b/c.md\nA\ta/new.md\nD\te.md\n" {
				t.Errorf("staged:\n%s", got)
			}
			if d := gittest.Git(t, dir, "diff-files", "--name-status"); d != "" {
				t.Errorf("git diff-files (stat data):\n%s", d)
			}
			after, err := Parse(out)
			if err != nil {
				t.Fatal(err)
			}
			var tree []byte
			for _, x := range after.exts {
				if x.sig == "TREE" {
					tree = x.data
				}
			}
			for _, node := range []string{"\x00-1 ", "a\x00-1 ", "b\x00-1 ", "keep\x001 0\n"} {
				if !bytes.Contains(tree, []byte(node)) {
					t.Errorf("cache tree %q has no node %q", tree, node)
				}
			}
			gittest.Git(t, dir, "add", "-A")
			want := strings.TrimSpace(gittest.Git(t, dir, "write-tree"))
			if err := os.WriteFile(name, out, 0o644); err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSpace(gittest.Git(t, dir, "write-tree")); got != want {
				t.Errorf("git write-tree = %s, want %s", got, want)
			}
		})
	}
}

// TestFile_Lookup looks entries up, in a merge conflict too.
func TestFile_Lookup(t *testing.T) {
	dir := seeded(t, map[string]string{"a.md": "a\n", "b.md": "b\n"})
	gittest.Git(t, dir, "checkout", "-q", "-b", "other")
	gittest.Commit(t, dir, "other", map[string]string{"a.md": "other\n"})
	gittest.Git(t, dir, "checkout", "-q", "-")
	gittest.Commit(t, dir, "mine", map[string]string{"a.md": "mine\n"})
	gittest.TryGit(dir, "merge", "-q", "other")
	ix, err := Read(filepath.Join(dir, ".git", "index"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if e, n := ix.Lookup("a.md"); n != 3 || e.Stage() != 1 {
		t.Errorf("a.md: %d entries, the first of stage %d; want 3, from stage 1", n, e.Stage())
	}
	e, n := ix.Lookup("b.md")
	if want := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD:b.md")); n != 1 || e.Stage() != 0 ||
		e.ID().String() != want || e.Mode() != 0o100644 || e.Size() != 2 {
		t.Errorf("b.md: %d entries, stage %d, id %s, mode %o, size %d", n, e.Stage(), e.ID(), e.Mode(), e.Size())
	}
	if _, n := ix.Lookup("c.md"); n != 0 {
		t.Errorf("c.md: %d entries", n)
	}
}

// TestFile_StatClean tells a file whose stat data match its entry from one
// changed since, and from a racily clean one.
func TestFile_StatClean(t *testing.T) {
	dir := seeded(t, map[string]string{"a.md": "a\n"})
	full, name := filepath.Join(dir, "a.md"), filepath.Join(dir, ".git", "index")
	past := time.Now().Add(-time.Hour)
	if err := os.Chtimes(full, past, past); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "update-index", "--refresh")
	stat := func() (*File, Entry, os.FileInfo) {
		ix, err := Read(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		e, _ := ix.Lookup("a.md")
		fi, err := os.Lstat(full)
		if err != nil {
			t.Fatal(err)
		}
		return ix, e, fi
	}
	if ix, e, fi := stat(); !ix.StatClean(e, fi) {
		t.Error("a.md, untouched since git wrote the index, is not stat-clean")
	}
	if err := os.Chtimes(name, past, past); err != nil {
		t.Fatal(err)
	}
	if ix, e, fi := stat(); ix.StatClean(e, fi) {
		t.Error("a.md, changed in the second the index was written, is stat-clean")
	}
	gittest.WriteFiles(t, dir, map[string]string{"a.md": "b\n"})
	if err := os.Chtimes(full, past, past); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if err := os.Chtimes(name, now, now); err != nil {
		t.Fatal(err)
	}
	if ix, e, fi := stat(); ix.StatClean(e, fi) {
		t.Error("a.md, rewritten with the same size and time, is stat-clean")
	}
}

func TestVarint(t *testing.T) {
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

// FuzzParse parses arbitrary bytes, and rewrites what parses.
func FuzzParse(f *testing.F) {
	dir := seeded(f, map[string]string{"a.md": "a\n", "a/b.md": "b\n"})
	b, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		ix, err := Parse(b)
		if err != nil {
			return
		}
		ix.Lookup("a.md")
		ix.Rewrite([]Update{{Path: "a/b.md", Delete: true}}, nil)
	})
}

// BenchmarkFile_Rewrite reads the index of a 10,000-note checkout,
// replaces one entry and encodes it again, without the file system writes.
func BenchmarkFile_Rewrite(b *testing.B) {
	dir := b.TempDir()
	gittest.Generate(b, dir, 10000, 2000)
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		b.Fatal(err)
	}
	p := strings.Fields(gittest.Git(b, dir, "ls-files"))[0]
	fi, err := os.Lstat(filepath.Join(dir, p))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	var out []byte
	for b.Loop() {
		ix, err := Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		out = ix.Rewrite([]Update{{Path: p, Mode: 0o100644, Stat: fi}}, out)
	}
}

// TestFile_SmudgeRacy_checks checks what RacyChecks keeps: a racily clean
// entry whose file was read and found unchanged is remembered once its
// last change is older than the margin, a file changed since (same size,
// same mtime) is read again and its entry smudged, and an entry no longer
// racy is forgotten.
func TestFile_SmudgeRacy_checks(t *testing.T) {
	dir := seeded(t, map[string]string{"a.md": "aaaa\n"})
	full := filepath.Join(dir, "a.md")
	index := filepath.Join(dir, ".git", "index")
	// The index is written in the second of the file: the entry is racy.
	fi, err := os.Lstat(full)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(index, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	read := func() *File {
		t.Helper()
		ix, err := Read(index, nil)
		if err != nil {
			t.Fatal(err)
		}
		return ix
	}
	touch := func(content string) {
		t.Helper()
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(full, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
	}
	var checks RacyChecks
	touch("aaaa\n") // changed just now, to the same content
	read().SmudgeRacy(dir, nil, &checks)
	if len(checks.m) != 0 {
		t.Errorf("a file changed within the margin is remembered: %v", checks.m)
	}
	time.Sleep(racyMargin + 10*time.Millisecond)
	ix := read()
	ix.SmudgeRacy(dir, nil, &checks)
	if _, ok := checks.m["a.md"]; !ok || !bytes.Equal(ix.Bytes(), ix.Buffer()) {
		t.Fatalf("an unchanged racy file: remembered %v, smudged %v", ok, !bytes.Equal(ix.Bytes(), ix.Buffer()))
	}

	touch("bbbb\n") // same size, same mtime: only the content (and the ctime) changed
	ix = read()
	ix.SmudgeRacy(dir, nil, &checks)
	if e, _ := ix.Lookup("a.md"); e.Size() != 0 {
		t.Errorf("a file changed since it was checked: entry size %d, want 0 (smudged)", e.Size())
	}
	if len(checks.m) != 0 {
		t.Errorf("a changed file is still remembered: %v", checks.m)
	}

	// An index newer than the file: nothing is racy, nothing remembered.
	checks.m = map[string]racyCheck{"a.md": {}}
	later := fi.ModTime().Add(2 * time.Second)
	if err := os.Chtimes(index, later, later); err != nil {
		t.Fatal(err)
	}
	read().SmudgeRacy(dir, nil, &checks)
	if len(checks.m) != 0 {
		t.Errorf("an entry no longer racy is remembered: %v", checks.m)
	}
}
