// Package tempfile writes the temporary files a commit puts beside their
// targets, named for the transaction that writes them: .wikid-<tag>-<random>.tmp
// during a journaled commit, so that recovery finds them, else
// .wikid-<random>.tmp.
package tempfile

import (
	"crypto/rand"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes content to a new hidden file in dir for the transaction
// tagged tag ("" for none), with permissions perm (before the umask),
// synced if sync is set, and returns its name. A failed write leaves no
// file.
func Write(dir, tag string, content []byte, perm fs.FileMode, sync bool) (string, error) {
	f, err := Create(dir, tag, perm)
	if err != nil {
		return "", err
	}
	_, err = f.Write(content)
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// Create creates a new hidden file in dir, named as Write names them, with
// permissions perm (before the umask).
func Create(dir, tag string, perm fs.FileMode) (*os.File, error) {
	var rnd [8]byte
	rand.Read(rnd[:])
	prefix := ".wikid-"
	if tag != "" {
		prefix += tag + "-"
	}
	return os.OpenFile(filepath.Join(dir, prefix+hex.EncodeToString(rnd[:])+".tmp"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
}
