package gitindex

import (
	"crypto/sha1"
	"encoding/binary"
	"os"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// Update is the new state of a path of the checkout.
type Update struct {
	Path   string // repository-relative, with '/'
	Delete bool   // the file is gone: its entries are removed
	Mode   uint32 // of the file written
	ID     plumbing.Hash
	// Stat is the file written, as it is on disk; nil leaves the entry
	// without stat data, and git compares the file's content on its next
	// look.
	Stat os.FileInfo
}

// Rewrite returns the index file with the entries of the updated paths
// replaced: a written file gets one stage-0 entry with its new id and fresh
// stat data, a deleted file loses its entries. The runs of untouched entries
// are copied as they are. The cache tree is invalidated along the updated
// paths and the optional extensions the change makes stale are dropped.
// The file is built in dst, which is reused when large enough. updates,
// one per path, are sorted by path.
func (ix *File) Rewrite(updates []Update, dst []byte) []byte {
	body := ix.RewriteBody(updates, dst)
	return append(body, ix.Checksum(body)...)
}

// RewriteBody is Rewrite without the trailing checksum, which Checksum
// gives: a caller can write the body while the checksum is computed.
func (ix *File) RewriteBody(updates []Update, dst []byte) []byte {
	slices.SortFunc(updates, func(a, b Update) int { return strings.Compare(a.Path, b.Path) })
	out := append(dst[:0], "DIRC"...)
	out = binary.BigEndian.AppendUint32(out, ix.version)
	out = append(out, 0, 0, 0, 0) // entry count, set below
	w := entryWriter{ix: ix, out: out}
	i := 0
	for _, u := range updates {
		j := i + ix.search(ix.entries[i:], u.Path)
		w.copyRun(i, j)
		for i = j; i < len(ix.entries) && string(ix.name(ix.entries[i])) == u.Path; i++ {
		}
		if !u.Delete {
			w.newEntry(u)
		}
	}
	w.copyRun(i, len(ix.entries))
	out = w.out
	binary.BigEndian.PutUint32(out[8:], uint32(w.count))

	paths := make([][]string, len(updates))
	for k, u := range updates {
		paths[k] = strings.Split(u.Path, "/")
	}
	for _, x := range ix.exts {
		data := x.data
		switch x.sig {
		case "TREE":
			var err error
			if data, err = invalidateCacheTree(x.data, paths); err != nil {
				continue // git rebuilds a missing cache tree
			}
		case "REUC":
		default:
			// UNTR, FSMN, EOIE, IEOT and unknown optional extensions
			// describe the old file; git rebuilds them when it needs them.
			continue
		}
		out = append(out, x.sig...)
		out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
		out = append(out, data...)
	}
	return out
}

// Checksum returns the trailing checksum of an index file whose body,
// everything before it, is body: its SHA-1, or zeros when the file read
// had none (index.skipHash).
func (ix *File) Checksum(body []byte) []byte {
	if ix.skipHash {
		return make([]byte, sha1.Size)
	}
	sum := sha1.Sum(body)
	return sum[:]
}

// search returns the position of the first entry whose path is not before
// name.
func (ix *File) search(entries []entryRef, name string) int {
	lo, hi := 0, len(entries)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if string(ix.name(entries[m])) < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// entryWriter appends entries to an index file being written.
type entryWriter struct {
	ix    *File
	out   []byte
	count int
	last  []byte // path of the last entry written (version 4 compresses against it)
}

// copyRun appends entries [i, j) of the file read. In version 4 the first
// of them is encoded again, against the path written before it, and the
// rest are copied.
func (w *entryWriter) copyRun(i, j int) {
	if i >= j {
		return
	}
	ix := w.ix
	from := ix.entries[i].off
	if ix.version == 4 {
		e := ix.entries[i]
		w.appendV4(ix.meta(e), ix.name(e))
		from = e.end
	}
	w.out = append(w.out, ix.buf[from:ix.entries[j-1].end]...)
	w.count += j - i
	w.last = ix.name(ix.entries[j-1])
}

// newEntry appends the stage-0 entry of a written file. Without the file's
// stat data (u.Stat nil) the entry has none, and git compares the file's
// content on its next look.
func (w *entryWriter) newEntry(u Update) {
	var meta [entryMetaSize]byte
	var st [10]uint32
	if u.Stat != nil {
		st = statData(u.Stat)
	}
	st[fieldMode] = u.Mode
	for k, v := range st {
		binary.BigEndian.PutUint32(meta[4*k:], v)
	}
	copy(meta[40:60], u.ID[:])
	binary.BigEndian.PutUint16(meta[60:], uint16(min(len(u.Path), flagNameMask)))
	name := []byte(u.Path)
	w.count++
	if w.ix.version == 4 {
		w.appendV4(meta[:], name)
		return
	}
	w.out = append(w.out, meta[:]...)
	w.out = append(w.out, name...)
	n := entryMetaSize + len(name)
	w.out = append(w.out, make([]byte, ((n+8)&^7)-n)...)
	w.last = name
}

// appendV4 appends an entry with its path compressed against the last one.
func (w *entryWriter) appendV4(meta, name []byte) {
	common := 0
	for common < len(w.last) && common < len(name) && w.last[common] == name[common] {
		common++
	}
	w.out = append(w.out, meta...)
	w.out = appendVarint(w.out, uint64(len(w.last)-common))
	w.out = append(w.out, name[common:]...)
	w.out = append(w.out, 0)
	w.last = name
}
