package gitstore

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

// The index (.git/index) is read and written here rather than with go-git's
// codec, which decodes every entry into its own allocation and encodes them
// all again (about 40 ms for 10,000 entries). Here the file is scanned once
// for entry boundaries, kept as read, and written back by copying the runs
// of untouched entries and building only the touched ones. Versions 2, 3
// and 4 are read and written as found.

const (
	entryMetaSize = 62 // stat data (40), object id (20), flags (2)
	flagExtended  = 0x4000
	flagStageMask = 0x3000
	flagNameMask  = 0x0fff
)

// Indexes of the stat fields (32-bit words) at the start of an entry.
const (
	fieldMtime = 2
	fieldMode  = 6
	fieldSize  = 9
)

// index is a parsed index file. It holds no pointers per entry, so that ten
// thousand entries cost the garbage collector nothing.
type index struct {
	version  uint32
	buf      []byte // the file as read, but for the sizes smudgeRacy zeroed
	orig     []byte // the file as read, when smudgeRacy changed buf
	entries  []entryRef
	names    []byte // version 4: the paths, which the file prefix-compresses
	exts     []indexExt
	skipHash bool        // the file ends in a zero id (index.skipHash)
	mtime    time.Time   // of the file read; zero for a new index
	perm     fs.FileMode // of the file read
}

// file returns the index file as it was read.
func (ix *index) file() []byte {
	if ix.orig != nil {
		return ix.orig
	}
	return ix.buf
}

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

func (ix *index) name(e entryRef) []byte {
	if ix.version == 4 {
		return ix.names[e.nameOff : e.nameOff+e.nameLen]
	}
	return ix.buf[e.nameOff : e.nameOff+e.nameLen]
}

func (ix *index) meta(e entryRef) []byte { return ix.buf[e.off : e.off+e.metaLen] }

func metaField(meta []byte, i int) uint32 { return binary.BigEndian.Uint32(meta[4*i:]) }
func metaStage(meta []byte) int           { return int(binary.BigEndian.Uint16(meta[60:])&flagStageMask) >> 12 }

func metaID(meta []byte) plumbing.Hash {
	var id plumbing.Hash
	copy(id[:], meta[40:60])
	return id
}

// readIndex reads the index file into buf (reused when large enough), or
// returns nil if there is none.
func readIndex(name string, buf []byte) (*index, error) {
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
	ix, err := parseIndex(buf)
	if err != nil {
		return nil, fmt.Errorf("read index %s: %w", name, err)
	}
	ix.mtime, ix.perm = fi.ModTime(), fi.Mode().Perm()
	return ix, nil
}

// parseIndex finds the entries and extensions of an index file. The
// trailing checksum is not verified: git replaces the index with a lock and
// a rename, so a torn file is never seen, and the one write path here
// computes it anew.
func parseIndex(b []byte) (*index, error) {
	if len(b) < 12+20 || string(b[:4]) != "DIRC" {
		return nil, errors.New("not an index file")
	}
	ix := &index{version: binary.BigEndian.Uint32(b[4:8]), buf: b}
	if ix.version < 2 || ix.version > 4 {
		return nil, fmt.Errorf("unsupported index version %d", ix.version)
	}
	n := int(binary.BigEndian.Uint32(b[8:12]))
	end := len(b) - 20
	ix.skipHash = isZero(b[end:])
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
