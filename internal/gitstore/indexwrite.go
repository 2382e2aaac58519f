package gitstore

import (
	"crypto/sha1"
	"encoding/binary"
	"slices"
	"strings"
)

// rewrite returns the index file with the entries of the touched paths
// replaced: a written file gets one stage-0 entry with its new id and fresh
// stat data, a deleted file loses its entries. The runs of untouched entries
// are copied as they are. The cache tree is invalidated along the touched
// paths and the optional extensions the change makes stale are dropped.
// The file is built in dst, which is reused when large enough.
func (ix *index) rewrite(done []written, dst []byte) []byte {
	slices.SortFunc(done, func(a, b written) int { return strings.Compare(a.c.path, b.c.path) })
	out := append(dst[:0], "DIRC"...)
	out = binary.BigEndian.AppendUint32(out, ix.version)
	out = append(out, 0, 0, 0, 0) // entry count, set below
	w := entryWriter{ix: ix, out: out}
	i := 0
	for _, d := range done {
		j := i + ix.search(ix.entries[i:], d.c.path)
		w.copyRun(i, j)
		for i = j; i < len(ix.entries) && string(ix.name(ix.entries[i])) == d.c.path; i++ {
		}
		if !d.c.delete {
			w.newEntry(d)
		}
	}
	w.copyRun(i, len(ix.entries))
	out = w.out
	binary.BigEndian.PutUint32(out[8:], uint32(w.count))

	paths := make([][]string, len(done))
	for k, d := range done {
		paths[k] = d.c.parts
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
	if ix.skipHash {
		return append(out, make([]byte, 20)...)
	}
	sum := sha1.Sum(out)
	return append(out, sum[:]...)
}

// search returns the position of the first entry whose path is not before
// name.
func (ix *index) search(entries []entryRef, name string) int {
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
	ix    *index
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
// stat data (d.fi nil) the entry has none, and git compares the file's
// content on its next look.
func (w *entryWriter) newEntry(d written) {
	var meta [entryMetaSize]byte
	var st [10]uint32
	if d.fi != nil {
		st = statData(d.fi)
	}
	st[fieldMode] = d.c.mode
	for k, v := range st {
		binary.BigEndian.PutUint32(meta[4*k:], v)
	}
	copy(meta[40:60], d.c.blob[:])
	binary.BigEndian.PutUint16(meta[60:], uint16(min(len(d.c.path), flagNameMask)))
	name := []byte(d.c.path)
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
