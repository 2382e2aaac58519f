package objdir

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/gittest"
)

// TestWriteLoose writes a blob that git then reads, and writes it again.
func TestWriteLoose(t *testing.T) {
	dir := gittest.Init(t)
	objects := filepath.Join(dir, ".git", "objects")
	content := []byte("# Note\n\nbody\n")
	id := gitformat.HashObject(plumbing.BlobObject, content)
	for range 2 {
		if err := WriteLoose(objects, plumbing.BlobObject, id, content, "abc"); err != nil {
			t.Fatal(err)
		}
	}
	if got := gittest.Git(t, dir, "cat-file", "-p", id.String()); got != string(content) {
		t.Errorf("git cat-file -p = %q", got)
	}
	gittest.Git(t, dir, "fsck", "--strict")
	left, _ := filepath.Glob(filepath.Join(objects, id.String()[:2], "tmp_obj_*"))
	if len(left) > 0 {
		t.Errorf("left %v", left)
	}
}

// TestWithPrefix finds objects by prefix, loose and packed, in the
// repository and in its alternates.
func TestWithPrefix(t *testing.T) {
	src := gittest.Init(t)
	gittest.Commit(t, src, "packed", map[string]string{"a.md": "a\n"})
	gittest.Git(t, src, "repack", "-adq")
	dir := t.TempDir()
	gittest.Git(t, dir, "clone", "-q", "--shared", src, ".")
	gittest.Commit(t, dir, "loose", map[string]string{"b.md": "b\n"})
	objects := filepath.Join(dir, ".git", "objects")
	if dirs := Dirs(objects); len(dirs) != 2 || dirs[1] != filepath.Join(src, ".git", "objects") {
		t.Errorf("Dirs = %v", dirs)
	}
	for _, rev := range []string{"HEAD", "HEAD^", "HEAD:a.md", "HEAD:b.md"} {
		id := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", rev))
		got, err := WithPrefix(objects, id[:4])
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(got, plumbing.NewHash(id)) {
			t.Errorf("WithPrefix(%s) = %v, lacks %s (%s)", id[:4], got, id, rev)
		}
		for _, g := range got {
			if !strings.HasPrefix(g.String(), id[:4]) {
				t.Errorf("WithPrefix(%s) lists %s", id[:4], g)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(objects, "pack", "pack-bad.idx"), []byte("not an index"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WithPrefix(objects, "00"); err == nil {
		t.Error("a malformed pack index gives no error")
	}
}
