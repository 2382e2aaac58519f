package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/wiki"
)

// readObject returns the type and content of an object. A missing object is
// a *wiki.MissingObjectError.
func (s *Store) readObject(id plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	return s.read(id, false)
}

// read returns the type and content of an object. With keep, the object
// reader caches it and the content is shared (see objdir.Reader.Read):
// for trees a walk reads again. The object reader reads without the lock;
// what it cannot read (an object it lacks, a pack it cannot open) go-git
// reads, or reports as missing.
func (s *Store) read(id plumbing.Hash, keep bool) (plumbing.ObjectType, []byte, error) {
	if s.closed.Load() {
		return 0, nil, ErrClosed
	}
	if b, ok := s.written.Get(id); ok {
		if !keep {
			b = bytes.Clone(b)
		}
		return plumbing.BlobObject, b, nil
	}
	if typ, b, err := s.reader.Read(id, keep); err == nil {
		return typ, b, nil
	}
	s.git.Lock()
	defer s.git.Unlock()
	if s.closed.Load() {
		return 0, nil, ErrClosed
	}
	obj, err := s.encodedObject(id)
	if err != nil {
		return 0, nil, err
	}
	r, err := obj.Reader()
	if err != nil {
		return 0, nil, fmt.Errorf("read object %s: %w", id, err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		return 0, nil, fmt.Errorf("read object %s: %w", id, err)
	}
	return obj.Type(), b, nil
}

// encodedObject looks an object up, listing the packs again when git added
// one since the last look; a missing object is a *wiki.MissingObjectError.
// The caller holds s.git.
func (s *Store) encodedObject(id plumbing.Hash) (plumbing.EncodedObject, error) {
	obj, err := s.storage.EncodedObject(plumbing.AnyObject, id)
	if errors.Is(err, plumbing.ErrObjectNotFound) && s.reindex() {
		obj, err = s.storage.EncodedObject(plumbing.AnyObject, id)
	}
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return nil, &wiki.MissingObjectError{ID: id.String()}
	}
	if err != nil {
		return nil, fmt.Errorf("read object %s: %w", id, err)
	}
	return obj, nil
}

// reindex makes go-git list the packs again if objects/pack changed, and
// reports whether it did. The caller holds s.git.
func (s *Store) reindex() bool {
	t := s.packDirTime()
	if t.Equal(s.packTime) {
		return false
	}
	s.packTime = t
	s.storage.Reindex()
	return true
}

// blobSizes returns the sizes of blobs, from the cache or the object headers;
// -1 for a blob the repository lacks (a partial clone), so that listing a
// tree never needs the blobs themselves.
func (s *Store) blobSizes(ids []plumbing.Hash) ([]int64, error) {
	sizes := make([]int64, len(ids))
	var missing []int
	for i, id := range ids {
		n, ok := s.sizes.Get(id)
		if !ok {
			missing = append(missing, i)
		}
		sizes[i] = n
	}
	if len(missing) == 0 {
		return sizes, nil
	}
	// Look the sizes up in batches, so that other readers get the lock in
	// between when thousands are missing.
	for len(missing) > 0 {
		batch := missing[:min(len(missing), 512)]
		missing = missing[len(batch):]
		if err := s.lookupSizes(ids, batch, sizes); err != nil {
			return nil, err
		}
	}
	return sizes, nil
}

// lookupSizes reads the sizes of ids[i] for i in batch from the object
// headers into sizes, and caches them; a missing object's size is -1, not
// cached, so that it is looked up again once fetched.
func (s *Store) lookupSizes(ids []plumbing.Hash, batch []int, sizes []int64) error {
	s.git.Lock()
	defer s.git.Unlock()
	if s.closed.Load() {
		return ErrClosed
	}
	for _, i := range batch {
		if n, err := s.reader.Size(ids[i]); err == nil {
			sizes[i] = n
			s.sizes.Put(ids[i], n)
			continue
		}
		n, err := s.storage.EncodedObjectSize(ids[i])
		if errors.Is(err, plumbing.ErrObjectNotFound) && s.reindex() {
			n, err = s.storage.EncodedObjectSize(ids[i])
		}
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			sizes[i] = -1
			continue
		}
		if err != nil {
			return fmt.Errorf("read size of %s: %w", ids[i], err)
		}
		sizes[i] = n
		s.sizes.Put(ids[i], n)
	}
	return nil
}
