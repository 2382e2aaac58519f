package objdir

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

var zlibWriters = sync.Pool{New: func() any {
	w, _ := zlib.NewWriterLevel(nil, zlib.BestSpeed)
	return w
}}

// WriteLoose stores content as a loose object of type t and id (the
// content's gitformat.HashObject) in the object folder objects, unless it
// is stored loose already. Its temporary file is named tmp_obj_<tag>*, as
// git names them with the tag first, so that a caller that crashed can
// find the files it left. It returns an error if the object cannot be
// written; nothing is left behind then.
func WriteLoose(objects string, t plumbing.ObjectType, id plumbing.Hash, content []byte, tag string) error {
	name := id.String()
	dir := filepath.Join(objects, name[:2])
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
	tmp, err := createObjectTemp(dir, tag)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return fmt.Errorf("write %s object: %w", t, err)
		}
		tmp, err = createObjectTemp(dir, tag)
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
// names them (tmp_obj_*), with tag first.
func createObjectTemp(dir, tag string) (*os.File, error) {
	var rnd [6]byte
	rand.Read(rnd[:])
	return os.OpenFile(filepath.Join(dir, "tmp_obj_"+tag+hex.EncodeToString(rnd[:])), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o444)
}
