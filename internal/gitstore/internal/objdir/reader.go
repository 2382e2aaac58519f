package objdir

import (
	"bytes"
	"container/list"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// ErrNotFound is returned for an object the folder and its alternates do
// not hold.
var ErrNotFound = errors.New("object not found")

// maxObject bounds the size of an object Reader reads; a header claiming
// more is damage, not content.
const maxObject = 1 << 32

// Reader reads objects from an object folder and its alternates: their
// packs (version 2 indexes) and loose objects. It resolves deltas with a
// cache of the objects it resolved, keyed by where they are in their pack,
// as git's delta base cache is; unlike go-git's object cache it never
// hashes what it reads. It is safe for concurrent use.
type Reader struct {
	dirs []string

	mu      sync.Mutex // serializes listing the packs
	packs   []*pack    // the packs listed last; replaced, never modified
	times   []time.Time
	listed  bool
	retired []*pack // packs gone from the last listing, closed at the next

	cache objectCache
}

// NewReader returns a reader of the object folder objects; cacheBytes
// bounds the resolved objects it keeps.
func NewReader(objects string, cacheBytes int) *Reader {
	r := &Reader{dirs: Dirs(objects)}
	r.cache.budget = cacheBytes
	return r
}

// Read returns the type and content of object id. With keep, the reader
// caches the object (a tree a walk reads again) and the content is shared
// with the cache: the caller must not modify it. Without, the content is
// the caller's. It returns ErrNotFound for an object the folders do not
// hold, and another error for one it cannot read (a damaged or unsupported
// pack).
func (r *Reader) Read(id plumbing.Hash, keep bool) (plumbing.ObjectType, []byte, error) {
	for first := true; ; first = false {
		for _, p := range r.list() {
			if off, ok := p.offset(id); ok {
				typ, data, shared, err := r.resolve(p, off, keep)
				if shared && !keep {
					data = bytes.Clone(data)
				}
				return typ, data, err
			}
		}
		typ, b, _, err := r.readLoose(id, false)
		if !errors.Is(err, ErrNotFound) || !first || !r.relist() {
			return typ, b, err
		}
	}
}

// Size returns the size of object id without reading all of it.
func (r *Reader) Size(id plumbing.Hash) (int64, error) {
	for first := true; ; first = false {
		for _, p := range r.list() {
			if off, ok := p.offset(id); ok {
				return r.size(p, off)
			}
		}
		_, _, n, err := r.readLoose(id, true)
		if err == nil {
			return n, nil
		}
		if !errors.Is(err, ErrNotFound) || !first || !r.relist() {
			return 0, err
		}
	}
}

// ReleaseCache empties the cache of resolved objects.
func (r *Reader) ReleaseCache() { r.cache.clear() }

// Close closes the packs. Reads after it fail.
func (r *Reader) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range append(r.packs, r.retired...) {
		p.f.Close()
	}
	r.packs, r.retired = nil, nil
	r.cache.clear()
	return nil
}

// list returns the packs, listing them the first time.
func (r *Reader) list() []*pack {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.listed {
		r.listLocked()
	}
	return r.packs
}

// relist lists the packs again if a pack folder changed since the last
// listing, and reports whether it did.
func (r *Reader) relist() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, dir := range r.dirs {
		if !packDirTime(dir).Equal(r.times[i]) {
			r.listLocked()
			return true
		}
	}
	return false
}

// listLocked lists the packs of every folder, keeping those it had; the
// caller holds mu. A pack it cannot open is left to go-git, which reports
// it.
func (r *Reader) listLocked() {
	had := make(map[string]*pack, len(r.packs))
	for _, p := range r.packs {
		had[p.name] = p
	}
	for _, p := range r.retired {
		p.f.Close()
	}
	r.retired = nil
	var packs []*pack
	r.times = r.times[:0]
	for _, dir := range r.dirs {
		r.times = append(r.times, packDirTime(dir))
		names, _ := filepath.Glob(filepath.Join(dir, "pack", "pack-*.idx"))
		for _, name := range names {
			if p := had[name]; p != nil {
				packs = append(packs, p)
				delete(had, name)
				continue
			}
			if p, err := openPack(name); err == nil {
				packs = append(packs, p)
			}
		}
	}
	for _, p := range had {
		r.retired = append(r.retired, p) // a reader may still be in it
	}
	r.packs, r.listed = packs, true
}

func packDirTime(dir string) time.Time {
	st, err := os.Stat(filepath.Join(dir, "pack"))
	if err != nil {
		return time.Time{}
	}
	return st.ModTime()
}

// resolve returns the object at off in p, applying the deltas between it
// and the nearest object that is whole or cached, and whether the content
// is shared with the cache. It caches the bases it met, as git does, and
// with keep the object itself.
func (r *Reader) resolve(p *pack, off int64, keep bool) (typ plumbing.ObjectType, data []byte, shared bool, err error) {
	type step struct {
		p     *pack
		off   int64
		delta []byte
	}
	var chain []step
	for {
		if c, ok := r.cache.get(p, off); ok {
			typ, data, shared = c.typ, c.data, true
			break
		}
		e, err := p.read(off, maxObject, false)
		if err != nil {
			return 0, nil, false, err
		}
		if e.typ != entryOfsDelta && e.typ != entryRefDelta {
			typ, data = plumbing.ObjectType(e.typ), e.data
			if shared = len(chain) > 0 || keep; shared {
				r.cache.put(p, off, typ, data)
			}
			break
		}
		chain = append(chain, step{p, off, e.data})
		if len(chain) > 10000 {
			return 0, nil, false, fmt.Errorf("%w: a chain of more than 10,000 deltas in %s", errBadPack, p.name)
		}
		if e.typ == entryOfsDelta {
			off = e.baseOff
			continue
		}
		base, baseOff, ok := r.find(e.baseID)
		if !ok {
			if typ, data, _, err = r.readLoose(e.baseID, false); err != nil {
				return 0, nil, false, fmt.Errorf("delta base %s: %w", e.baseID, err)
			}
			break
		}
		p, off = base, baseOff
	}
	for i := len(chain) - 1; i >= 0; i-- {
		s := chain[i]
		out, err := applyDelta(data, s.delta, maxObject)
		if err != nil {
			return 0, nil, false, fmt.Errorf("%s at %d: %w", s.p.name, s.off, err)
		}
		data = out
		if shared = i > 0 || keep; shared {
			r.cache.put(s.p, s.off, typ, data)
		}
	}
	return typ, data, shared, nil
}

// find returns the pack holding id and its offset there.
func (r *Reader) find(id plumbing.Hash) (*pack, int64, bool) {
	for _, p := range r.list() {
		if off, ok := p.offset(id); ok {
			return p, off, true
		}
	}
	return nil, 0, false
}

// size returns the size of the object at off in p: from its header, or
// from its delta's.
func (r *Reader) size(p *pack, off int64) (int64, error) {
	if c, ok := r.cache.get(p, off); ok {
		return int64(len(c.data)), nil
	}
	e, err := p.read(off, maxObject, true)
	if err != nil {
		return 0, err
	}
	if e.typ != entryOfsDelta && e.typ != entryRefDelta {
		return int64(e.size), nil
	}
	_, n, _, err := deltaSizes(e.data)
	if err != nil {
		return 0, fmt.Errorf("%s at %d: %w", p.name, off, err)
	}
	return int64(n), nil
}

// readLoose reads loose object id: its type, content and size; with header
// only, no content.
func (r *Reader) readLoose(id plumbing.Hash, header bool) (plumbing.ObjectType, []byte, int64, error) {
	name := id.String()
	for _, dir := range r.dirs {
		b, err := os.ReadFile(filepath.Join(dir, name[:2], name[2:]))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return 0, nil, 0, err
		}
		typ, content, n, err := parseLoose(b, header)
		if err != nil {
			return 0, nil, 0, fmt.Errorf("loose object %s: %w", name, err)
		}
		return typ, content, n, nil
	}
	return 0, nil, 0, ErrNotFound
}

// parseLoose inflates a loose object file: "<type> <size>\0<content>".
// It returns the type, the content (none with header only) and the size.
func parseLoose(b []byte, header bool) (plumbing.ObjectType, []byte, int64, error) {
	zr, err := newZlib(bytes.NewReader(b))
	if err != nil {
		return 0, nil, 0, err
	}
	defer zlibReaders.Put(zr)
	var head [64]byte
	k, err := io.ReadFull(zr, head[:])
	if err != nil && err != io.ErrUnexpectedEOF {
		return 0, nil, 0, err
	}
	nul := bytes.IndexByte(head[:k], 0)
	sp := bytes.IndexByte(head[:k], ' ')
	if nul < 0 || sp < 0 || sp > nul {
		return 0, nil, 0, errors.New("bad header")
	}
	typ, err := plumbing.ParseObjectType(string(head[:sp]))
	if err != nil || typ < plumbing.CommitObject || typ > plumbing.TagObject {
		return 0, nil, 0, fmt.Errorf("bad type %q", head[:sp])
	}
	n, err := strconv.ParseUint(string(head[sp+1:nul]), 10, 64)
	if err != nil || n > maxObject || n > uint64(len(b))*1032+64 {
		return 0, nil, 0, fmt.Errorf("bad size %q", head[sp+1:nul])
	}
	if header {
		return typ, nil, int64(n), nil
	}
	content := make([]byte, n)
	got := copy(content, head[nul+1:k])
	if uint64(k-nul-1) > n {
		return 0, nil, 0, errors.New("more data than its header says")
	}
	if _, err := io.ReadFull(zr, content[got:]); err != nil {
		return 0, nil, 0, err
	}
	if err := atEnd(zr); err != nil {
		return 0, nil, 0, err
	}
	return typ, content, int64(n), nil
}

// objectCache keeps resolved objects by their place in a pack, the least
// recently used dropped first, within a budget of bytes.
type objectCache struct {
	mu     sync.Mutex
	budget int
	size   int
	lru    list.List // of *cached, most recent first
	at     map[cacheKey]*list.Element
}

type cacheKey struct {
	p   *pack
	off int64
}

type cached struct {
	key  cacheKey
	typ  plumbing.ObjectType
	data []byte
}

func (c *objectCache) get(p *pack, off int64) (*cached, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.at[cacheKey{p, off}]
	if !ok {
		return nil, false
	}
	c.lru.MoveToFront(el)
	return el.Value.(*cached), true
}

func (c *objectCache) put(p *pack, off int64, typ plumbing.ObjectType, data []byte) {
	if len(data) > c.budget/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	k := cacheKey{p, off}
	if _, ok := c.at[k]; ok {
		return
	}
	if c.at == nil {
		c.at = map[cacheKey]*list.Element{}
	}
	c.at[k] = c.lru.PushFront(&cached{key: k, typ: typ, data: data})
	c.size += len(data)
	for c.size > c.budget {
		old := c.lru.Back()
		v := old.Value.(*cached)
		c.lru.Remove(old)
		delete(c.at, v.key)
		c.size -= len(v.data)
	}
}

func (c *objectCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Init()
	c.at, c.size = nil, 0
}
