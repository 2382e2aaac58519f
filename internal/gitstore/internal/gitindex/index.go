package gitindex

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

const (
	entryMetaSize = 62 // stat data (40), object id (20), flags (2)
	flagExtended  = 0x4000
	flagStageMask = 0x3000
	flagNameMask  = 0x0fff
)

// Indexes of the stat fields (32-bit words) at the start of an entry.
const (
	fieldCtime = 0
	fieldMtime = 2
	fieldMode  = 6
	fieldSize  = 9
)

// File is a parsed index file. It holds no pointers per entry, so that ten
// thousand entries cost the garbage collector nothing.
type File struct {
	version  uint32
	buf      []byte // the file as read, but for the sizes SmudgeRacy zeroed
	orig     []byte // the file as read, when SmudgeRacy changed buf
	entries  []entryRef
	names    []byte // version 4: the paths, which the file prefix-compresses
	exts     []indexExt
	skipHash bool        // the file ends in a zero id (index.skipHash)
	mtime    time.Time   // of the file read; zero for a new index
	perm     fs.FileMode // of the file read
}

// New returns an empty index, of version 2 as git writes one by default,
// for a checkout that has none.
func New() *File { return &File{version: 2} }

// Bytes returns the index file as it was read (nil for New's).
func (ix *File) Bytes() []byte {
	if ix.orig != nil {
		return ix.orig
	}
	return ix.buf
}

// Buffer returns the buffer the file was read into, for the next Read to
// reuse once Bytes is no longer needed; nil for New's.
func (ix *File) Buffer() []byte { return ix.buf }

// ModTime returns the modification time of the file read; zero for New's.
// Git compares the content of an entry whose file is not older than the
// index (racily clean), so a caller that puts the file back puts this time
// back too.
func (ix *File) ModTime() time.Time { return ix.mtime }

// Perm returns the permissions of the file read.
func (ix *File) Perm() fs.FileMode { return ix.perm }

// Len returns the number of entries.
func (ix *File) Len() int { return len(ix.entries) }

// Lookup returns the first entry of path and the number of its entries:
// 0 when the index has none, 1 for a tracked file, more (one per stage)
// for an unmerged one.
func (ix *File) Lookup(path string) (Entry, int) {
	lo, hi := ix.find(path)
	if lo == hi {
		return Entry{}, 0
	}
	return Entry{ix.meta(ix.entries[lo])}, hi - lo
}

// Entry is one entry of an index: its stat data, object id and flags, as
// stored in the file.
type Entry struct{ meta []byte }

// ID returns the entry's object id.
func (e Entry) ID() plumbing.Hash { return metaID(e.meta) }

// Stage returns the entry's merge stage: 0, or 1 to 3 for an unmerged path.
func (e Entry) Stage() int { return metaStage(e.meta) }

// Mode returns the entry's git file mode.
func (e Entry) Mode() uint32 { return metaField(e.meta, fieldMode) }

// Size returns the file size the entry records (truncated to 32 bits); 0
// once SmudgeRacy smudged it.
func (e Entry) Size() uint32 { return metaField(e.meta, fieldSize) }

// entryRef locates one entry: its bytes in buf (stat data, object id, flags
// and, when the extended bit is set, two more bytes of flags: metaLen in
// all), and its path.
type entryRef struct {
	off, end         uint32
	nameOff, nameLen uint32 // in buf (versions 2 and 3) or names (version 4)
	metaLen          uint32
}

// indexExt is an extension block.
type indexExt struct {
	sig  string
	data []byte
}

func (ix *File) name(e entryRef) []byte {
	if ix.version == 4 {
		return ix.names[e.nameOff : e.nameOff+e.nameLen]
	}
	return ix.buf[e.nameOff : e.nameOff+e.nameLen]
}

func (ix *File) meta(e entryRef) []byte { return ix.buf[e.off : e.off+e.metaLen] }

func metaField(meta []byte, i int) uint32 { return binary.BigEndian.Uint32(meta[4*i:]) }
func metaStage(meta []byte) int           { return int(binary.BigEndian.Uint16(meta[60:])&flagStageMask) >> 12 }

func metaID(meta []byte) plumbing.Hash {
	var id plumbing.Hash
	copy(id[:], meta[40:60])
	return id
}

// Read reads the index file name into buf (reused when large enough), or
// returns nil if there is none. It returns an error for a file it cannot
// read or parse.
func Read(name string, buf []byte) (*File, error) {
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read index: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read index: %w", err)
	}
	if int64(cap(buf)) < fi.Size() {
		buf = make([]byte, fi.Size(), fi.Size()+fi.Size()/8)
	}
	buf = buf[:fi.Size()]
	if _, err := io.ReadFull(f, buf); err != nil {
		return nil, fmt.Errorf("read index: %w", err)
	}
	ix, err := Parse(buf)
	if err != nil {
		return nil, fmt.Errorf("read index %s: %w", name, err)
	}
	ix.mtime, ix.perm = fi.ModTime(), fi.Mode().Perm()
	return ix, nil
}

// Parse finds the entries and extensions of an index file, which it keeps
// and does not copy. The trailing checksum is not verified: git replaces
// the index with a lock and a rename, so a torn file is never seen, and
// Rewrite computes it anew. It returns an error for a malformed file or a
// version other than 2, 3 and 4.
func Parse(b []byte) (*File, error) {
	if len(b) < 12+20 || string(b[:4]) != "DIRC" {
		return nil, errors.New("not an index file")
	}
	ix := &File{version: binary.BigEndian.Uint32(b[4:8]), buf: b}
	if ix.version < 2 || ix.version > 4 {
		return nil, fmt.Errorf("unsupported index version %d", ix.version)
	}
	n := int(binary.BigEndian.Uint32(b[8:12]))
	end := len(b) - 20
	ix.skipHash = isZero(b[end:])
	if n > (end-12)/entryMetaSize {
		return nil, errors.New("more entries than the file holds")
	}
	ix.entries = make([]entryRef, 0, n)
	if ix.version == 4 {
		ix.names = make([]byte, 0, len(b))
	}
	off := 12
	var prevOff, prevLen int
	for range n {
		if off+entryMetaSize > end {
			return nil, errors.New("truncated entry")
		}
		e := entryRef{off: uint32(off), metaLen: entryMetaSize}
		flags := binary.BigEndian.Uint16(b[off+60:])
		if flags&flagExtended != 0 {
			if ix.version < 3 {
				return nil, errors.New("extended flags in a version 2 index")
			}
			e.metaLen += 2
		}
		p := off + int(e.metaLen)
		if ix.version == 4 {
			strip, k := readVarint(b[p:end])
			if k == 0 || int(strip) > prevLen {
				return nil, errors.New("bad path prefix")
			}
			p += k
			nul := bytes.IndexByte(b[p:end], 0)
			if nul < 0 {
				return nil, errors.New("unterminated path")
			}
			start := len(ix.names)
			ix.names = append(ix.names, ix.names[prevOff:prevOff+prevLen-int(strip)]...)
			ix.names = append(ix.names, b[p:p+nul]...)
			prevOff, prevLen = start, len(ix.names)-start
			e.nameOff, e.nameLen = uint32(prevOff), uint32(prevLen)
			off = p + nul + 1
		} else {
			nameLen := int(flags & flagNameMask)
			if nameLen == flagNameMask {
				nul := bytes.IndexByte(b[p:end], 0)
				if nul < 0 {
					return nil, errors.New("unterminated path")
				}
				nameLen = nul
			}
			if p+nameLen > end {
				return nil, errors.New("truncated path")
			}
			e.nameOff, e.nameLen = uint32(p), uint32(nameLen)
			off += (int(e.metaLen) + nameLen + 8) &^ 7
		}
		e.end = uint32(off)
		ix.entries = append(ix.entries, e)
	}
	for off < end {
		if off+8 > end {
			return nil, errors.New("truncated extension")
		}
		size := int(binary.BigEndian.Uint32(b[off+4:]))
		if off+8+size > end {
			return nil, fmt.Errorf("truncated extension %q", b[off:off+4])
		}
		ix.exts = append(ix.exts, indexExt{sig: string(b[off : off+4]), data: b[off+8 : off+8+size]})
		off += 8 + size
	}
	return ix, nil
}

func isZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// readVarint decodes git's offset varint (used by index version 4) and
// returns it with the number of bytes read, 0 on error.
func readVarint(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	v := uint64(c & 0x7f)
	i := 1
	for c&0x80 != 0 {
		if i >= len(b) || v >= 1<<56 {
			return 0, 0
		}
		v++
		c = b[i]
		i++
		v = v<<7 | uint64(c&0x7f)
	}
	return v, i
}

// appendVarint encodes v as git's offset varint.
func appendVarint(b []byte, v uint64) []byte {
	var buf [16]byte
	pos := len(buf) - 1
	buf[pos] = byte(v & 0x7f)
	for v >>= 7; v != 0; v >>= 7 {
		v--
		pos--
		buf[pos] = 0x80 | byte(v&0x7f)
	}
	return append(b, buf[pos:]...)
}
