package gitstore

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/gitformat"
	"github.com/wikid/wikid/internal/wiki"
)

// find returns the range of entries of path name (one per stage).
func (ix *index) find(name string) (int, int) {
	lo := ix.search(ix.entries, name)
	hi := lo
	for hi < len(ix.entries) && string(ix.name(ix.entries[hi])) == name {
		hi++
	}
	return lo, hi
}

// check returns why the index entry of a touched path differs from the
// parent (staged or unmerged changes), or "". An entry staged already as
// the commit writes the file does not differ. A nil index has no opinion.
func (ix *index) check(c *change) string {
	if ix == nil {
		return ""
	}
	lo, hi := ix.find(c.path)
	switch {
	case hi-lo == 1 && !c.delete && metaStage(ix.meta(ix.entries[lo])) == 0 && metaID(ix.meta(ix.entries[lo])) == c.blob:
		return "" // staged already as the commit writes it
	case !c.hadOld && lo < hi:
		return "added to the index"
	case !c.hadOld:
		return ""
	case lo == hi:
		return "deleted in the index"
	case hi-lo > 1 || metaStage(ix.meta(ix.entries[lo])) != 0:
		return "unmerged"
	case metaID(ix.meta(ix.entries[lo])) != c.old.ID:
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
			return wiki.Errorf(wiki.CodeReadOnly, "the index is split (core.splitIndex), which wikid cannot write").
				WithHint("run git update-index --no-split-index, then retry")
		case x.sig == "sdir":
			return wiki.Errorf(wiki.CodeReadOnly, "the index is sparse, which wikid cannot write").
				WithHint("run git sparse-checkout disable, then retry")
		case x.sig[0] < 'A' || x.sig[0] > 'Z':
			return wiki.Errorf(wiki.CodeReadOnly, "the index has the extension %q, which wikid cannot write", x.sig).
				WithHint("make this change with git; wikid does not know the index format this git writes")
		}
	}
	return nil
}

// smudgeRacy does what git does before it rewrites an index: an entry whose
// file was modified in the same second as the index was written (or later)
// may look clean by its stat data while its content changed; if the content
// differs, its size is set to 0 so that git compares the content next time.
// Rewriting the index moves its timestamp on, so without this such an
// entry would stay falsely clean. The entries of skip are left alone. The
// sizes are zeroed in ix.buf; ix.file() still returns the file as read.
func (ix *index) smudgeRacy(workTree string, skip map[string]bool) {
	if ix.mtime.IsZero() {
		return
	}
	stamp := uint32(ix.mtime.Unix())
	for _, e := range ix.entries {
		meta := ix.meta(e)
		if metaField(meta, fieldMtime) < stamp || metaStage(meta) != 0 ||
			!gitformat.IsRegularMode(metaField(meta, fieldMode)) || metaField(meta, fieldSize) == 0 {
			continue
		}
		name := string(ix.name(e))
		if skip[name] {
			continue
		}
		full := filepath.Join(workTree, filepath.FromSlash(name))
		fi, err := os.Lstat(full)
		if err != nil || uint32(fi.Size()) != metaField(meta, fieldSize) ||
			uint32(fi.ModTime().Unix()) != metaField(meta, fieldMtime) {
			continue // its stat data already shows it changed
		}
		b, err := os.ReadFile(full)
		if err == nil && gitformat.HashObject(plumbing.BlobObject, b) != metaID(meta) {
			if ix.orig == nil {
				ix.orig = bytes.Clone(ix.buf)
			}
			binary.BigEndian.PutUint32(meta[4*fieldSize:], 0)
		}
	}
}
