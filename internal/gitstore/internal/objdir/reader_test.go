package objdir

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gittest"
)

// gitObjects returns every object git can read in dir (its alternates'
// too), by id, with its type and content, from git cat-file.
func gitObjects(t *testing.T, dir string) map[plumbing.Hash]struct {
	typ     plumbing.ObjectType
	content []byte
} {
	t.Helper()
	cmd := exec.Command("git", "cat-file", "--batch-all-objects", "--batch")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git cat-file: %v", err)
	}
	objs := map[plumbing.Hash]struct {
		typ     plumbing.ObjectType
		content []byte
	}{}
	r := bufio.NewReader(bytes.NewReader(out))
	for {
		line, err := r.ReadString('\n')
		if err == io.EOF {
			break
		}
		f := strings.Fields(line)
		n, _ := strconv.Atoi(f[2])
		content := make([]byte, n+1)
		if _, err := io.ReadFull(r, content); err != nil {
			t.Fatal(err)
		}
		typ, _ := plumbing.ParseObjectType(f[1])
		objs[plumbing.NewHash(f[0])] = struct {
			typ     plumbing.ObjectType
			content []byte
		}{typ, content[:n]}
	}
	return objs
}

// checkAll reads every object git reads, with its size, and compares.
func checkAll(t *testing.T, dir string, r *Reader) int {
	t.Helper()
	objs := gitObjects(t, dir)
	for id, want := range objs {
		for _, keep := range []bool{false, true, false} {
			typ, got, err := r.Read(id, keep)
			if err != nil {
				t.Fatalf("Read(%s): %v", id, err)
			}
			if typ != want.typ || !bytes.Equal(got, want.content) {
				t.Fatalf("Read(%s, %t) = %s of %d bytes, git has a %s of %d", id, keep, typ, len(got), want.typ, len(want.content))
			}
			if !keep && len(got) > 0 {
				got[0] ^= 0xff // the caller's to change: no read after sees it
			}
		}
		n, err := r.Size(id)
		if err != nil || n != int64(len(want.content)) {
			t.Fatalf("Size(%s) = %d, %v; git says %d", id, n, err, len(want.content))
		}
	}
	return len(objs)
}

// TestReader_AsGit reads every object of a generated history as git reads
// it: packed with deep delta chains by offset and by id, loose, in two
// packs, and in an alternate; and with a cache too small to hold a chain.
func TestReader_AsGit(t *testing.T) {
	src := t.TempDir()
	gittest.Generate(t, src, 200, 120)
	for _, c := range []struct {
		name  string
		setup func(dir string)
		cache int
	}{
		{"offset deltas", func(dir string) { gittest.Git(t, dir, "repack", "-adfq", "--depth=50", "--window=50") }, 8 << 20},
		{"id deltas", func(dir string) {
			gittest.Git(t, dir, "-c", "repack.useDeltaBaseOffset=false", "repack", "-adfq", "--depth=50", "--window=50")
		}, 8 << 20},
		{"tiny cache", func(dir string) { gittest.Git(t, dir, "repack", "-adfq", "--depth=50", "--window=50") }, 1 << 10},
		{"loose and two packs", func(dir string) {
			gittest.Git(t, dir, "repack", "-adq")
			gittest.Commit(t, dir, "second pack", map[string]string{"notes/second.md": "# Second\n"})
			gittest.Git(t, dir, "repack", "-dq")
			gittest.Commit(t, dir, "loose", map[string]string{"notes/loose.md": "# Loose\n"})
		}, 8 << 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			gittest.Git(t, dir, "clone", "-q", "--no-local", src, ".")
			c.setup(dir)
			r := NewReader(filepath.Join(dir, ".git", "objects"), c.cache)
			defer r.Close()
			n := checkAll(t, dir, r)
			t.Logf("%d objects", n)
		})
	}
	t.Run("alternate", func(t *testing.T) {
		dir := t.TempDir()
		gittest.Git(t, dir, "clone", "-q", "--shared", src, ".")
		gittest.Commit(t, dir, "own", map[string]string{"notes/own.md": "# Own\n"})
		r := NewReader(filepath.Join(dir, ".git", "objects"), 8<<20)
		defer r.Close()
		checkAll(t, dir, r)
	})
}

// TestReader_NewPack finds an object in a pack written after the reader
// listed the packs, and reports one no folder has as ErrNotFound.
func TestReader_NewPack(t *testing.T) {
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "first", map[string]string{"a.md": "a\n"})
	gittest.Git(t, dir, "repack", "-adq")
	r := NewReader(filepath.Join(dir, ".git", "objects"), 1<<20)
	defer r.Close()
	checkAll(t, dir, r)
	gittest.Commit(t, dir, "second", map[string]string{"b.md": "b\n"})
	gittest.Git(t, dir, "repack", "-adq") // the first pack goes, a new one comes
	checkAll(t, dir, r)
	var none plumbing.Hash
	none[0] = 0xab
	if _, _, err := r.Read(none, false); !errors.Is(err, ErrNotFound) {
		t.Errorf("Read(absent) = %v, want ErrNotFound", err)
	}
	if _, err := r.Size(none); !errors.Is(err, ErrNotFound) {
		t.Errorf("Size(absent) = %v, want ErrNotFound", err)
	}
}

// TestApplyDelta makes objects from deltas written by hand, and refuses
// deltas that do not fit.
func TestApplyDelta(t *testing.T) {
	base := []byte("0123456789abcdef")
	// base size 16, result 9: copy 4 bytes at 10, insert "xyz", copy 2 at 0.
	delta := []byte{16, 9, 0x80 | 0x01 | 0x10, 10, 4, 3, 'x', 'y', 'z', 0x80 | 0x10, 2}
	got, err := applyDelta(base, delta, 1<<20)
	if err != nil || string(got) != "abcdxyz01" {
		t.Fatalf("applyDelta = %q, %v", got, err)
	}
	for _, bad := range [][]byte{
		{},
		{15, 9, 0x91, 10, 4},         // wrong base size
		{16, 4, 0x91, 14, 4},         // copy past the base
		{16, 5, 0x91, 10, 4},         // makes 4, not 5
		{16, 4, 0x91, 10, 4, 1, 'x'}, // more than declared
		{16, 4, 0},                   // reserved opcode
		{16, 4, 5, 'a'},              // truncated insert
		{16, 4, 0x91},                // truncated copy
		{16, 0xff, 0xff, 0xff, 0xff}, // truncated size
		{16, 0x80, 0x80, 0x80, 0x10}, // over the limit
	} {
		if got, err := applyDelta(base, bad, 1<<20); err == nil {
			t.Errorf("applyDelta(%v) = %q, want an error", bad, got)
		}
	}
}

// FuzzApplyDelta: any delta either fails or makes exactly the size it
// declares.
func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("0123456789abcdef"), []byte{16, 9, 0x91, 10, 4, 3, 'x', 'y', 'z', 0x90, 2})
	f.Add([]byte(""), []byte{0, 0})
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		got, err := applyDelta(base, delta, 1<<20)
		if err != nil {
			return
		}
		_, size, _, _ := deltaSizes(delta)
		if uint64(len(got)) != size {
			t.Fatalf("made %d bytes, declared %d", len(got), size)
		}
	})
}

// FuzzParseEntry: any bytes parse as a pack entry or give an error.
func FuzzParseEntry(f *testing.F) {
	f.Add([]byte{0x33, 0x78, 0x9c, 0x4b, 0x4c, 0x4a, 0x06, 0x00, 0x02, 0x4d, 0x01, 0x27}, false)
	f.Add([]byte{0x63, 0x05, 0x78, 0x9c}, true)
	f.Add([]byte{0x73, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, false)
	f.Fuzz(func(t *testing.T, raw []byte, header bool) {
		e, err := parseEntry(raw, 1000, 1<<20, header)
		if err != nil {
			return
		}
		if !header && uint64(len(e.data)) != e.size {
			t.Fatalf("data of %d bytes, header says %d", len(e.data), e.size)
		}
	})
}

// FuzzParseLoose: any bytes parse as a loose object or give an error.
func FuzzParseLoose(f *testing.F) {
	var b bytes.Buffer
	zw := zlibWriters.Get().(interface {
		Reset(io.Writer)
		Write([]byte) (int, error)
		Close() error
	})
	zw.Reset(&b)
	fmt.Fprintf(zw, "blob 3\x00abc")
	zw.Close()
	f.Add(b.Bytes(), false)
	f.Add(b.Bytes(), true)
	f.Fuzz(func(t *testing.T, raw []byte, header bool) {
		typ, content, n, err := parseLoose(raw, header)
		if err == nil && (!header && int64(len(content)) != n || typ < plumbing.CommitObject || typ > plumbing.TagObject) {
			t.Fatalf("type %v, content of %d bytes", typ, len(content))
		}
	})
}
