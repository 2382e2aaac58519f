package gitstore

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// The index (.git/index) is read and written here rather than with go-git's
// codec: an edit of one note must not re-encode ten thousand entries through
// reflection-free but allocation-heavy code, so entries are kept as slices of
// the file read and copied back out as they are, and only the touched ones
// are built anew. Versions 2, 3 and 4 are read and written as found.

const (
	entryMetaSize = 62 // stat data (40), object id (20), flags (2)
	flagExtended  = 0x4000
	flagStageMask = 0x3000
	flagNameMask  = 0x0fff
)

// index is a parsed index file.
type index struct {
	version  uint32
	entries  []indexEntry // sorted by name, then stage
	exts     []indexExt
	skipHash bool      // the file ends in a zero id (index.skipHash)
	mtime    time.Time // of the file read; zero for a new index
}

// indexEntry is one entry: meta holds the stat data, the object id and the
// flags (plus the extended flags when the extended bit is set), in file
// layout.
type indexEntry struct {
	meta []byte
	name []byte
}

func (e indexEntry) flags() uint16            { return binary.BigEndian.Uint16(e.meta[60:62]) }
func (e indexEntry) stage() int               { return int(e.flags()&flagStageMask) >> 12 }
func (e indexEntry) field(i int) uint32       { return binary.BigEndian.Uint32(e.meta[4*i:]) }
func (e indexEntry) setField(i int, v uint32) { binary.BigEndian.PutUint32(e.meta[4*i:], v) }

func (e indexEntry) id() plumbing.Hash {
	var id plumbing.Hash
	copy(id[:], e.meta[40:60])
	return id
}

// Indexes of the stat fields in meta.
const (
	fieldMtime = 2
	fieldMode  = 6
	fieldSize  = 9
)

// indexExt is an extension block.
type indexExt struct {
	sig  string
	data []byte
}

// readIndex reads the index file, or returns nil if there is none.
func readIndex(name string) (*index, error) {
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
	b := make([]byte, fi.Size())
	if _, err := f.ReadAt(b, 0); err != nil {
		return nil, fmt.Errorf("read index: %w", err)
	}
	ix, err := parseIndex(b)
	if err != nil {
		return nil, fmt.Errorf("read index %s: %w", name, err)
	}
	ix.mtime = fi.ModTime()
	return ix, nil
}

// parseIndex decodes an index file. The trailing checksum is not verified:
// git writes the index with a lock and a rename, so a torn file cannot be
// seen, and the one write path here recomputes it.
func parseIndex(b []byte) (*index, error) {
	if len(b) < 12+20 || string(b[:4]) != "DIRC" {
		return nil, errors.New("not an index file")
	}
	ix := &index{version: binary.BigEndian.Uint32(b[4:8])}
	if ix.version < 2 || ix.version > 4 {
		return nil, fmt.Errorf("unsupported index version %d", ix.version)
	}
	n := int(binary.BigEndian.Uint32(b[8:12]))
	end := len(b) - 20
	ix.skipHash = bytes.Equal(b[end:], make([]byte, 20))
	ix.entries = make([]indexEntry, 0, n)
	off := 12
	var prev []byte
	for range n {
		if off+entryMetaSize > end {
			return nil, errors.New("truncated entry")
		}
		metaLen := entryMetaSize
		flags := binary.BigEndian.Uint16(b[off+60:])
		if flags&flagExtended != 0 {
			if ix.version < 3 {
				return nil, errors.New("extended flags in a version 2 index")
			}
			metaLen += 2
		}
		e := indexEntry{meta: b[off : off+metaLen : off+metaLen]}
		p := off + metaLen
		if ix.version == 4 {
			strip, k := readVarint(b[p:end])
			if k == 0 || int(strip) > len(prev) {
				return nil, errors.New("bad path prefix")
			}
			p += k
			nul := bytes.IndexByte(b[p:end], 0)
			if nul < 0 {
				return nil, errors.New("unterminated path")
			}
			name := make([]byte, 0, len(prev)-int(strip)+nul)
			name = append(append(name, prev[:len(prev)-int(strip)]...), b[p:p+nul]...)
			e.name = name
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
			e.name = b[p : p+nameLen : p+nameLen]
			off += (metaLen + nameLen + 8) &^ 7
		}
		prev = e.name
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

// encode returns the index file: the entries, the extensions kept, and the
// trailing checksum (zero if the index was found without one).
func (ix *index) encode() []byte {
	size := 12 + 20
	for _, e := range ix.entries {
		size += len(e.meta) + len(e.name) + 8
	}
	for _, x := range ix.exts {
		size += 8 + len(x.data)
	}
	b := make([]byte, 12, size)
	copy(b, "DIRC")
	binary.BigEndian.PutUint32(b[4:], ix.version)
	binary.BigEndian.PutUint32(b[8:], uint32(len(ix.entries)))
	var prev []byte
	var pad [8]byte
	for _, e := range ix.entries {
		b = append(b, e.meta...)
		if ix.version == 4 {
			common := 0
			for common < len(prev) && common < len(e.name) && prev[common] == e.name[common] {
				common++
			}
			b = appendVarint(b, uint64(len(prev)-common))
			b = append(b, e.name[common:]...)
			b = append(b, 0)
			prev = e.name
			continue
		}
		b = append(b, e.name...)
		n := len(e.meta) + len(e.name)
		b = append(b, pad[:((n+8)&^7)-n]...)
	}
	for _, x := range ix.exts {
		b = append(b, x.sig...)
		b = binary.BigEndian.AppendUint32(b, uint32(len(x.data)))
		b = append(b, x.data...)
	}
	if ix.skipHash {
		return append(b, make([]byte, 20)...)
	}
	sum := sha1.Sum(b)
	return append(b, sum[:]...)
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
