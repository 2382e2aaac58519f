package gitstore

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// find returns the range of entries named name (one per stage).
func (ix *index) find(name string) (int, int) {
	lo := sort.Search(len(ix.entries), func(i int) bool {
		return string(ix.entries[i].name) >= name
	})
	hi := lo
	for hi < len(ix.entries) && string(ix.entries[hi].name) == name {
		hi++
	}
	return lo, hi
}

// check returns why the index entry of a touched path differs from the
// parent (staged or unmerged changes), or "". A nil index has no opinion.
func (ix *index) check(c *change) string {
	if ix == nil {
		return ""
	}
	lo, hi := ix.find(c.path)
	switch {
	case !c.hadOld && lo < hi:
		return "added to the index"
	case !c.hadOld:
		return ""
	case lo == hi:
		return "deleted in the index"
	case hi-lo > 1 || ix.entries[lo].stage() != 0:
		return "unmerged"
	case ix.entries[lo].id() != c.old.id:
		return "staged changes"
	}
	return ""
}

// unsupported returns an error if the index uses an extension that must be
// understood to rewrite it: a split index, a sparse index, or an unknown
// required extension (git marks optional ones with an upper-case letter).
func (ix *index) unsupported() error {
	if ix == nil {
		return nil
	}
	for _, x := range ix.exts {
		switch {
		case x.sig == "link":
			return fmt.Errorf("the index is split (core.splitIndex), which is not supported: run git update-index --no-split-index")
		case x.sig == "sdir":
			return fmt.Errorf("the index is sparse, which is not supported: run git sparse-checkout disable")
		case x.sig[0] < 'A' || x.sig[0] > 'Z':
			return fmt.Errorf("the index has the unknown required extension %q", x.sig)
		}
	}
	return nil
}

// update replaces the entries of the touched paths: a written file gets a
// stage-0 entry with its new id and fresh stat data, a deleted file loses
// its entries. It invalidates the cache tree along the touched paths and
// drops the optional extensions that the change makes stale.
func (ix *index) update(done []written) {
	slices.SortFunc(done, func(a, b written) int { return strings.Compare(a.c.path, b.c.path) })
	out := make([]indexEntry, 0, len(ix.entries)+len(done))
	i := 0
	for _, w := range done {
		for i < len(ix.entries) && string(ix.entries[i].name) < w.c.path {
			out = append(out, ix.entries[i])
			i++
		}
		for i < len(ix.entries) && string(ix.entries[i].name) == w.c.path {
			i++
		}
		if w.fi != nil {
			out = append(out, newEntry(w))
		}
	}
	ix.entries = append(out, ix.entries[i:]...)

	paths := make([][]string, len(done))
	for k, w := range done {
		paths[k] = w.c.parts
	}
	exts := ix.exts[:0:0]
	for _, x := range ix.exts {
		switch x.sig {
		case "TREE":
			data, err := invalidateCacheTree(x.data, paths)
			if err != nil {
				continue // git rebuilds a missing cache tree
			}
			exts = append(exts, indexExt{sig: x.sig, data: data})
		case "REUC":
			exts = append(exts, x)
		}
		// UNTR, FSMN, EOIE, IEOT and unknown optional extensions are
		// dropped: they describe the old file and git rebuilds them.
	}
	ix.exts = exts
}

// newEntry builds the stage-0 entry of a written file.
func newEntry(w written) indexEntry {
	st := statData(w.fi)
	st[fieldMode] = w.c.mode
	meta := make([]byte, entryMetaSize)
	for k, v := range st {
		binary.BigEndian.PutUint32(meta[4*k:], v)
	}
	copy(meta[40:60], w.c.blob[:])
	binary.BigEndian.PutUint16(meta[60:], uint16(min(len(w.c.path), flagNameMask)))
	return indexEntry{meta: meta, name: []byte(w.c.path)}
}

// smudgeRacy does what git does before it rewrites an index: an entry whose
// file was modified in the same second as the index was written (or later)
// may look clean by its stat data while its content changed; if the content
// differs, its size is set to 0 so that git compares the content next time.
// Rewriting the index moves its timestamp on, so without this such an
// entry would stay falsely clean.
func (ix *index) smudgeRacy(workTree string, skip map[string]bool) {
	if ix.mtime.IsZero() {
		return
	}
	stamp := uint32(ix.mtime.Unix())
	for _, e := range ix.entries {
		if e.field(fieldMtime) < stamp || e.stage() != 0 || skip[string(e.name)] ||
			!isRegularMode(e.field(fieldMode)) || e.field(fieldSize) == 0 {
			continue
		}
		full := filepath.Join(workTree, filepath.FromSlash(string(e.name)))
		fi, err := os.Lstat(full)
		if err != nil || uint32(fi.Size()) != e.field(fieldSize) ||
			uint32(fi.ModTime().Unix()) != e.field(fieldMtime) {
			continue // its stat data already shows it changed
		}
		b, err := os.ReadFile(full)
		if err == nil && hashObject(plumbing.BlobObject, b) != e.id() {
			e.setField(fieldSize, 0)
		}
	}
}
