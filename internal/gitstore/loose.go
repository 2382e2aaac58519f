package gitstore

import (
	"bytes"
	"compress/zlib"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// Loose objects are written here rather than through go-git's storer, for
// speed: compressed at zlib's best speed, as git does for loose objects
// (core.looseCompression defaults to 1), with one temporary file in the
// object's folder and one rename, instead of go-git's default compression
// and its temporary file in objects/pack.

var zlibWriters = sync.Pool{New: func() any {
	w, _ := zlib.NewWriterLevel(nil, zlib.BestSpeed)
	return w
}}

// writeObject stores content as a loose object of type t and id, the
// content's hashObject, unless it is already stored loose.
func (s *Store) writeObject(t plumbing.ObjectType, id plumbing.Hash, content []byte) error {
	name := id.String()
	dir := filepath.Join(s.commonDir, "objects", name[:2])
	final := filepath.Join(dir, name[2:])
	if _, err := os.Lstat(final); err == nil {
		return nil
	}
	var buf bytes.Buffer
	buf.Grow(len(content)/2 + 64)
	zw := zlibWriters.Get().(*zlib.Writer)
	zw.Reset(&buf)
	zw.Write(t.Bytes())
	zw.Write([]byte{' '})
	zw.Write(strconv.AppendInt(nil, int64(len(content)), 10))
	zw.Write([]byte{0})
	zw.Write(content)
	err := zw.Close()
	zlibWriters.Put(zw)
	if err != nil {
		return fmt.Errorf("write %s object: %w", t, err)
	}
	tmp, err := createObjectTemp(dir, s.tag)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return fmt.Errorf("write %s object: %w", t, err)
		}
		tmp, err = createObjectTemp(dir, s.tag)
	}
	if err != nil {
		return fmt.Errorf("write %s object: %w", t, err)
	}
	_, err = tmp.Write(buf.Bytes())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), final)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s object %s: %w", t, name, err)
	}
	return nil
}

// createObjectTemp creates a read-only temporary file in dir, named as git
// names them (tmp_obj_*), with the journaled commit's tag first (see
// journal).
func createObjectTemp(dir, tag string) (*os.File, error) {
	var rnd [6]byte
	rand.Read(rnd[:])
	return os.OpenFile(filepath.Join(dir, "tmp_obj_"+tag+hex.EncodeToString(rnd[:])), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o444)
}
