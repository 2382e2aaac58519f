package gitindex

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
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

// RacyChecks remembers what SmudgeRacy learned by reading files: the
// racily clean entries whose files held their content, with the files'
// stat data, so that the next SmudgeRacy does not read a file again while
// its stat data stay the same. A burst of commits rewrites the index many
// times a second, and each would otherwise read again every file written
// in that second. The zero value is ready to use; it is not safe for
// concurrent use.
type RacyChecks struct {
	m map[string]racyCheck
}

type racyCheck struct {
	st [10]uint32
	id plumbing.Hash
}

// racyMargin is how much older than a check a file's last change (its
// ctime, which nothing can set back) must be for the check to be kept. The
// kernel stamps a change from a clock that lags by up to a tick (10 ms at
// the slowest, HZ=100): a change made after the check may carry a time
// from before it, but not from further back than that, and any later
// change of a file whose ctime is older than the check by more than a tick
// changes its stat data.
const racyMargin = 50 * time.Millisecond

// SmudgeRacy does what git does before it rewrites an index: an entry whose
// file was modified in the same second as the index was written (or later)
// may look clean by its stat data while its content changed; if the content
// differs, its size is set to 0 so that git compares the content next time.
// Rewriting the index moves its timestamp on, so without this such an
// entry would stay falsely clean. The files are read from the checkout at
// workTree; the entries of skip are left alone. checks, when not nil,
// spares the files it says are unchanged since they were read, and learns
// the files read this time. Bytes still returns the file as read.
func (ix *File) SmudgeRacy(workTree string, skip map[string]bool, checks *RacyChecks) {
	if ix.mtime.IsZero() {
		return
	}
	var kept map[string]racyCheck
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
		checked := time.Now() // before the stat: see racyMargin
		full := filepath.Join(workTree, filepath.FromSlash(name))
		fi, err := os.Lstat(full)
		if err != nil || uint32(fi.Size()) != metaField(meta, fieldSize) ||
			uint32(fi.ModTime().Unix()) != metaField(meta, fieldMtime) {
			continue // its stat data already shows it changed
		}
		st, id := statData(fi), metaID(meta)
		if c, ok := checks.lookup(name); ok && c.st == st && c.id == id {
			kept = keepCheck(kept, name, c)
			continue
		}
		b, err := os.ReadFile(full)
		if err != nil {
			continue
		}
		if gitformat.HashObject(plumbing.BlobObject, b) != id {
			if ix.orig == nil {
				ix.orig = bytes.Clone(ix.buf)
			}
			binary.BigEndian.PutUint32(meta[4*fieldSize:], 0)
			continue
		}
		if time.Unix(int64(st[fieldCtime]), int64(st[fieldCtime+1])).Before(checked.Add(-racyMargin)) {
			kept = keepCheck(kept, name, racyCheck{st: st, id: id})
		}
	}
	if checks != nil {
		checks.m = kept // what is no longer racy is forgotten
	}
}

func (c *RacyChecks) lookup(name string) (racyCheck, bool) {
	if c == nil {
		return racyCheck{}, false
	}
	r, ok := c.m[name]
	return r, ok
}

func keepCheck(m map[string]racyCheck, name string, c racyCheck) map[string]racyCheck {
	if m == nil {
		m = make(map[string]racyCheck)
	}
	m[name] = c
	return m
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
