package gitindex

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/gitformat"
)

// find returns the range of entries of path name (one per stage).
func (ix *File) find(name string) (int, int) {
	lo := ix.search(ix.entries, name)
	hi := lo
	for hi < len(ix.entries) && string(ix.name(ix.entries[hi])) == name {
		hi++
	}
	return lo, hi
}

// Unwritable returns the signature of an extension that must be understood
// to rewrite the index, or "": "link" for a split index
// (core.splitIndex), "sdir" for a sparse index, or an unknown required
// extension (git marks optional ones with an upper-case letter).
func (ix *File) Unwritable() string {
	for _, x := range ix.exts {
		if x.sig == "link" || x.sig == "sdir" || x.sig[0] < 'A' || x.sig[0] > 'Z' {
			return x.sig
		}
	}
	return ""
}

// SmudgeRacy does what git does before it rewrites an index: an entry whose
// file was modified in the same second as the index was written (or later)
// may look clean by its stat data while its content changed; if the content
// differs, its size is set to 0 so that git compares the content next time.
// Rewriting the index moves its timestamp on, so without this such an
// entry would stay falsely clean. The files are read from the checkout at
// workTree; the entries of skip are left alone. Bytes still returns the
// file as read.
func (ix *File) SmudgeRacy(workTree string, skip map[string]bool) {
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

// StatClean reports whether the stat data of a file, fi, match those of
// its entry e, and the file was not changed in the same second as the
// index was written or later (racily clean: its content must be compared).
// Such a file holds the entry's content, as git judges it.
func (ix *File) StatClean(e Entry, fi os.FileInfo) bool {
	st := statData(fi)
	for i, v := range st {
		if i == fieldMode {
			continue // git normalizes the mode it stores
		}
		if metaField(e.meta, i) != v {
			return false
		}
	}
	return ix.mtime.IsZero() || int64(st[fieldMtime]) < ix.mtime.Unix()
}
