package gittest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// PartialClone returns a blobless partial clone of the repository at src
// (git clone --filter=blob:none over a file:// URL, so that the filter
// applies): it holds every commit and tree, the blobs its checkout of HEAD
// needed, and no other blob.
func PartialClone(tb testing.TB, src string) string {
	tb.Helper()
	Git(tb, src, "config", "uploadpack.allowFilter", "true")
	dst := filepath.Join(tb.TempDir(), "clone")
	Git(tb, src, "clone", "-q", "--filter=blob:none", "file://"+filepath.ToSlash(src), dst)
	if len(MissingObjects(tb, dst)) == 0 {
		tb.Fatalf("the partial clone of %s lacks no object: did the filter apply?", src)
	}
	return dst
}

// MissingObjects returns the ids of the objects that the commits reachable
// from any ref refer to and the repository at dir lacks, as git lists them
// without fetching any (git rev-list --missing=print), sorted.
func MissingObjects(tb testing.TB, dir string) []string {
	tb.Helper()
	var out []string
	for _, line := range strings.Split(Git(tb, dir, "rev-list", "--objects", "--all", "--missing=print"), "\n") {
		if id, ok := strings.CutPrefix(line, "?"); ok {
			out = append(out, id)
		}
	}
	return out
}

// RemoveObjects deletes loose objects from the repository at dir, as a
// damaged repository may have lost them. It fails the test if one of them
// is not a loose object (a fresh repository written by git commit keeps its
// objects loose).
func RemoveObjects(tb testing.TB, dir string, ids ...string) {
	tb.Helper()
	objects := strings.TrimSpace(Git(tb, dir, "rev-parse", "--git-path", "objects"))
	if !filepath.IsAbs(objects) {
		objects = filepath.Join(dir, objects)
	}
	for _, id := range ids {
		if err := os.Remove(filepath.Join(objects, id[:2], id[2:])); err != nil {
			tb.Fatalf("remove object %s: %v", id, err)
		}
	}
}

// BlobAt returns the id of the blob at path in rev.
func BlobAt(tb testing.TB, dir, rev, path string) string {
	tb.Helper()
	return strings.TrimSpace(Git(tb, dir, "rev-parse", rev+":"+path))
}
