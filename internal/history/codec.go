package history

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

// pending is a commit record with paths and parents by name, as it is
// built and as it is stored on disk.
type pending struct {
	id                oid
	parents           []oid
	author, committer person
	subject           string
	tool, client      string
	changes           []pendingChange
	missing           []oid // sorted
	// changesUnknown: a tree the diff needs is missing, so changes is
	// empty.
	changesUnknown bool
}

type pendingChange struct {
	path, from           string // from "" when not a rename
	old, new             oid
	add, del, radd, rdel int32
	flags                changeFlags
	side                 []pendingSide
}

type pendingSide struct {
	blob     oid
	from     string
	fromBlob oid
}

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// appendRecord appends the framed record of p to b: the payload's length,
// the payload and its CRC-32C.
func appendRecord(b []byte, p *pending) []byte {
	var e encoder
	e.oid(p.id)
	e.uvarint(uint64(len(p.parents)))
	for _, id := range p.parents {
		e.oid(id)
	}
	e.person(p.author)
	e.person(p.committer)
	e.str(p.subject)
	e.str(p.tool)
	e.str(p.client)
	e.uvarint(uint64(len(p.changes)))
	for i := range p.changes {
		ch := &p.changes[i]
		e.str(ch.path)
		e.str(ch.from)
		e.optOID(ch.old)
		e.optOID(ch.new)
		for _, n := range []int32{ch.add, ch.del, ch.radd, ch.rdel} {
			e.varint(int64(n))
		}
		e.uvarint(uint64(ch.flags))
		e.uvarint(uint64(len(ch.side)))
		for _, s := range ch.side {
			e.optOID(s.blob)
			e.str(s.from)
			e.optOID(s.fromBlob)
		}
	}
	e.uvarint(uint64(len(p.missing)))
	for _, id := range p.missing {
		e.oid(id)
	}
	e.bool(p.changesUnknown)
	b = binary.AppendUvarint(b, uint64(len(e.b)))
	b = append(b, e.b...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(e.b, crcTable))
}

// readRecord decodes the record at the start of b and returns it and its
// framed length. A truncated or damaged record is errCorrupt.
func readRecord(b []byte) (*pending, int, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) || uint64(len(b)-k)-n < 4 {
		return nil, 0, errCorrupt
	}
	payload := b[k : k+int(n)]
	if binary.LittleEndian.Uint32(b[k+int(n):]) != crc32.Checksum(payload, crcTable) {
		return nil, 0, errCorrupt
	}
	d := decoder{b: payload}
	p := &pending{id: d.oid()}
	p.parents = make([]oid, d.count())
	for i := range p.parents {
		p.parents[i] = d.oid()
	}
	p.author = d.person()
	p.committer = d.person()
	p.subject, p.tool, p.client = d.str(), d.str(), d.str()
	p.changes = make([]pendingChange, d.count())
	for i := range p.changes {
		ch := &p.changes[i]
		ch.path, ch.from = d.str(), d.str()
		ch.old, ch.new = d.optOID(), d.optOID()
		ch.add, ch.del, ch.radd, ch.rdel = d.int32(), d.int32(), d.int32(), d.int32()
		ch.flags = changeFlags(d.uvarint())
		if m := d.count(); m > 0 {
			ch.side = make([]pendingSide, m)
			for j := range ch.side {
				ch.side[j] = pendingSide{blob: d.optOID(), from: d.str(), fromBlob: d.optOID()}
			}
		}
	}
	if m := d.count(); m > 0 {
		p.missing = make([]oid, m)
		for i := range p.missing {
			p.missing[i] = d.oid()
		}
	}
	p.changesUnknown = d.bool()
	if d.err != nil || len(d.b) != 0 {
		return nil, 0, fmt.Errorf("%w: record of commit %s", errCorrupt, p.id)
	}
	return p, k + int(n) + 4, nil
}

type encoder struct{ b []byte }

func (e *encoder) uvarint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) varint(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *encoder) oid(id oid)       { e.b = append(e.b, id[:]...) }
func (e *encoder) str(s string)     { e.uvarint(uint64(len(s))); e.b = append(e.b, s...) }

func (e *encoder) bool(v bool) {
	if v {
		e.uvarint(1)
	} else {
		e.uvarint(0)
	}
}

// optOID writes a zero id as one 0 byte, any other as 1 and the id.
func (e *encoder) optOID(id oid) {
	if id.isZero() {
		e.b = append(e.b, 0)
		return
	}
	e.b = append(e.b, 1)
	e.oid(id)
}

func (e *encoder) person(p person) {
	e.str(p.name)
	e.str(p.email)
	e.varint(p.when)
	e.varint(int64(p.tz))
}

// decoder reads what encoder wrote; the first error sticks and every later
// read returns zero values.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail() { d.err, d.b = errCorrupt, nil }

func (d *decoder) uvarint() uint64 {
	v, k := binary.Uvarint(d.b)
	if k <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[k:]
	return v
}

func (d *decoder) varint() int64 {
	v, k := binary.Varint(d.b)
	if k <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[k:]
	return v
}

func (d *decoder) int32() int32 { return int32(d.varint()) }

func (d *decoder) bool() bool {
	switch d.uvarint() {
	case 0:
		return false
	case 1:
		return true
	}
	d.fail()
	return false
}

// count reads a length that must fit in what is left.
func (d *decoder) count() int {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *decoder) oid() oid {
	var id oid
	if len(d.b) < len(id) {
		d.fail()
		return id
	}
	copy(id[:], d.b)
	d.b = d.b[len(id):]
	return id
}

func (d *decoder) optOID() oid {
	if len(d.b) == 0 {
		d.fail()
		return oid{}
	}
	flag := d.b[0]
	d.b = d.b[1:]
	switch flag {
	case 0:
		return oid{}
	case 1:
		return d.oid()
	}
	d.fail()
	return oid{}
}

func (d *decoder) str() string {
	n := d.count()
	if d.err != nil {
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) person() person {
	return person{name: d.str(), email: d.str(), when: d.varint(), tz: d.int32()}
}
