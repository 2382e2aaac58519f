package objdir

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// The types of pack entries: the four object types as git numbers them,
// and the two kinds of delta.
const (
	entryOfsDelta = 6
	entryRefDelta = 7
)

var errBadPack = errors.New("bad pack")

// pack is one pack file with its version 2 index, read whole.
type pack struct {
	name string // the index's path
	f    *os.File
	size int64 // of the pack file
	// The index's tables: fan-out, ids, 4-byte offsets, 8-byte offsets.
	fanout []byte
	ids    []byte
	offs   []byte
	large  []byte
	count  int

	endsOnce sync.Once
	ends     []int64 // every entry's offset, sorted, then the pack's end
}

// openPack reads the version 2 index idx and opens its pack. It returns an
// error for another version or a damaged index.
func openPack(idx string) (*pack, error) {
	b, err := os.ReadFile(idx)
	if err != nil {
		return nil, err
	}
	if len(b) < 8+1024+40 || string(b[:4]) != "\377tOc" || binary.BigEndian.Uint32(b[4:]) != 2 {
		return nil, fmt.Errorf("%s: not a version 2 pack index", idx)
	}
	p := &pack{name: idx, fanout: b[8 : 8+1024]}
	n := int(binary.BigEndian.Uint32(p.fanout[1020:]))
	at := 8 + 1024
	if len(b) < at+n*(20+4+4)+40 {
		return nil, fmt.Errorf("%s: truncated pack index", idx)
	}
	p.count = n
	p.ids = b[at : at+20*n]
	at += 20*n + 4*n // past the CRCs
	p.offs = b[at : at+4*n]
	p.large = b[at+4*n : len(b)-40]
	f, err := os.Open(idx[:len(idx)-len(".idx")] + ".pack")
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	p.f, p.size = f, st.Size()
	return p, nil
}

// offset returns the offset of object id in the pack, and whether the pack
// has it.
func (p *pack) offset(id plumbing.Hash) (int64, bool) {
	lo := 0
	if id[0] > 0 {
		lo = int(binary.BigEndian.Uint32(p.fanout[4*(int(id[0])-1):]))
	}
	hi := int(binary.BigEndian.Uint32(p.fanout[4*int(id[0]):]))
	if hi > p.count || lo > hi {
		return 0, false
	}
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch c := bytes.Compare(p.ids[20*m:20*m+20], id[:]); {
		case c < 0:
			lo = m + 1
		case c > 0:
			hi = m
		default:
			return p.offsetAt(m)
		}
	}
	return 0, false
}

// offsetAt returns the offset of the index's i-th object.
func (p *pack) offsetAt(i int) (int64, bool) {
	o := binary.BigEndian.Uint32(p.offs[4*i:])
	if o&0x80000000 == 0 {
		return int64(o), true
	}
	k := int(o & 0x7fffffff)
	if 8*k+8 > len(p.large) {
		return 0, false
	}
	return int64(binary.BigEndian.Uint64(p.large[8*k:])), true
}

// end returns where the entry at off ends: the next entry's offset, or the
// pack's checksum.
func (p *pack) end(off int64) int64 {
	p.endsOnce.Do(func() {
		ends := make([]int64, 0, p.count+1)
		for i := range p.count {
			if o, ok := p.offsetAt(i); ok {
				ends = append(ends, o)
			}
		}
		slices.Sort(ends)
		p.ends = append(ends, p.size-20)
	})
	i, _ := slices.BinarySearch(p.ends, off+1)
	if i == len(p.ends) {
		return p.size - 20
	}
	return p.ends[i]
}

// entry is one pack entry's header and its inflated data: an object's
// content, or a delta against the base at baseOff (entryOfsDelta) or with
// id baseID (entryRefDelta).
type entry struct {
	typ     int
	size    uint64 // of the inflated data
	baseOff int64
	baseID  plumbing.Hash
	data    []byte
}

// read reads the entry at off, whose data inflates to at most limit bytes.
// With header true it inflates only what gives the object's size: nothing
// of an object, the two sizes a delta starts with.
func (p *pack) read(off int64, limit uint64, header bool) (entry, error) {
	end := p.end(off)
	if off < 12 || end <= off || end > p.size {
		return entry{}, fmt.Errorf("%w: entry at %d", errBadPack, off)
	}
	raw := make([]byte, end-off)
	if _, err := p.f.ReadAt(raw, off); err != nil {
		return entry{}, err
	}
	return parseEntry(raw, off, limit, header)
}

// parseEntry parses raw, the bytes of the pack entry at off.
func parseEntry(raw []byte, off int64, limit uint64, header bool) (entry, error) {
	if len(raw) == 0 {
		return entry{}, fmt.Errorf("%w: empty entry at %d", errBadPack, off)
	}
	var e entry
	c := raw[0]
	e.typ = int(c>>4) & 7
	e.size = uint64(c & 15)
	i := 1
	for shift := uint(4); c&0x80 != 0; shift += 7 {
		if i == len(raw) || shift > 57 {
			return entry{}, fmt.Errorf("%w: entry header at %d", errBadPack, off)
		}
		c = raw[i]
		i++
		e.size |= uint64(c&0x7f) << shift
	}
	switch e.typ {
	case entryOfsDelta:
		if i == len(raw) {
			return entry{}, fmt.Errorf("%w: entry header at %d", errBadPack, off)
		}
		c = raw[i]
		i++
		rel := int64(c & 0x7f)
		for c&0x80 != 0 {
			if i == len(raw) || rel > 1<<55 {
				return entry{}, fmt.Errorf("%w: delta base of %d", errBadPack, off)
			}
			c = raw[i]
			i++
			rel = (rel+1)<<7 | int64(c&0x7f)
		}
		if e.baseOff = off - rel; rel <= 0 || e.baseOff < 12 {
			return entry{}, fmt.Errorf("%w: delta base of %d", errBadPack, off)
		}
	case entryRefDelta:
		if i+20 > len(raw) {
			return entry{}, fmt.Errorf("%w: delta base of %d", errBadPack, off)
		}
		copy(e.baseID[:], raw[i:i+20])
		i += 20
	case int(plumbing.CommitObject), int(plumbing.TreeObject), int(plumbing.BlobObject), int(plumbing.TagObject):
	default:
		return entry{}, fmt.Errorf("%w: entry type %d at %d", errBadPack, e.typ, off)
	}
	if e.size > limit || e.size > uint64(len(raw)-i)*1032+64 {
		return entry{}, fmt.Errorf("%w: entry of %d bytes at %d", errBadPack, e.size, off)
	}
	want := e.size
	if header {
		if e.typ != entryOfsDelta && e.typ != entryRefDelta {
			return e, nil // the size is all a caller wants
		}
		want = min(want, 20) // two sizes of at most 10 bytes each
	}
	data, err := inflate(raw[i:], int(want), want == e.size)
	if err != nil {
		return entry{}, fmt.Errorf("%w: entry at %d: %v", errBadPack, off, err)
	}
	e.data = data
	return e, nil
}

var zlibReaders sync.Pool

// newZlib returns a zlib reader of src from the pool; put it back when done.
func newZlib(src io.Reader) (io.ReadCloser, error) {
	if r, ok := zlibReaders.Get().(io.ReadCloser); ok {
		if err := r.(zlib.Resetter).Reset(src, nil); err != nil {
			return nil, err
		}
		return r, nil
	}
	return zlib.NewReader(src)
}

// inflate returns the first n bytes a zlib stream holds; with whole true
// the stream must hold exactly n.
func inflate(b []byte, n int, whole bool) ([]byte, error) {
	zr, err := newZlib(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	defer zlibReaders.Put(zr)
	out := make([]byte, n)
	if _, err := io.ReadFull(zr, out); err != nil {
		return nil, err
	}
	if whole {
		if err := atEnd(zr); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// atEnd checks that a zlib stream has nothing more, and its checksum.
func atEnd(zr io.Reader) error {
	var one [1]byte
	k, err := zr.Read(one[:])
	if k != 0 {
		return errors.New("more data than its header says")
	}
	if err != nil && err != io.EOF {
		return err
	}
	return nil
}
