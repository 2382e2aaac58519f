package gitstore

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
)

// A person's editor writes a note without any of git's locks, at any moment,
// in place or by renaming a new file over it. The worktree check reads each
// touched file under index.lock, but objects and temporary files are written
// after it; a file replaced or removed without looking again would lose what
// the editor saved in between. So every file wikid replaces or removes in the
// checkout goes through replaceChecked: the file is first moved aside (a
// rename, atomic), the moved file is compared with what the check saw, and
// only then is the new content renamed in, without replacing anything that
// appeared meanwhile. What someone saved is put back, never lost; the write
// fails with errChanged.

// errChanged is returned when a checkout file is no longer what the worktree
// check saw: someone changed, replaced, created or removed it since.
var errChanged = errors.New("changed on disk since it was checked")

// fileState is a checkout file as wikid last saw it: absent, or its size and
// blob id.
type fileState struct {
	present bool
	size    int64
	id      plumbing.Hash
}

// stateOf returns the state of content read from a file.
func stateOf(content []byte) fileState {
	return fileState{present: true, size: int64(len(content)), id: hashObject(plumbing.BlobObject, content)}
}

// holds reports whether the regular file at name has the state's content: a
// size that differs says no at once, else the bytes are hashed (equal stat
// data prove nothing for an edit made within the file system's timestamp
// granularity).
func (st fileState) holds(name string) bool {
	fi, err := os.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != st.size {
		return false
	}
	b, err := os.ReadFile(name)
	return err == nil && hashObject(plumbing.BlobObject, b) == st.id
}

// replaceChecked puts the file tmp (a temporary file in the same folder) at
// full, or removes full when tmp is "", provided full is still as want says.
// If it is not, full is left as it is (what was moved aside is put back)
// and errChanged returned; tmp stays for the caller to remove.
//
// The old file is moved aside to asideName(full) first: should the process
// die before it is put back or removed, recovery finds it there (see
// returnAside).
func (s *Store) replaceChecked(full, tmp string, want fileState) error {
	aside := ""
	if want.present {
		aside = s.asideName(full)
		if err := os.Rename(full, aside); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return errChanged // removed since the check
			}
			return err
		}
		s.crashPoint("moved aside")
		if !want.holds(aside) {
			if err := renameNoReplace(aside, full); err != nil {
				return fmt.Errorf("%w; it is kept as %s: %w", errChanged, filepath.Base(aside), err)
			}
			return errChanged
		}
	}
	if tmp != "" {
		if err := renameNoReplace(tmp, full); err != nil {
			if aside != "" {
				os.Remove(aside) // what the check saw: HEAD's content, or the new one
			}
			if errors.Is(err, fs.ErrExist) {
				return errChanged // created since
			}
			return err
		}
	}
	if aside != "" {
		os.Remove(aside)
	}
	return nil
}

// asideName is where replaceChecked moves the file full while it looks at
// it: a hidden file in the same folder named after the transaction's tag
// and the file's name, so that recovery finds it from the journal.
func (s *Store) asideName(full string) string {
	sum := sha1.Sum([]byte(filepath.Base(full)))
	tag := s.tag
	if tag == "" {
		tag = "none"
	}
	return filepath.Join(filepath.Dir(full), ".wikid-"+tag+"-"+hex.EncodeToString(sum[:8])+".aside")
}

// returnAside handles a file that a process killed inside replaceChecked
// left aside for full: put back if full is missing, removed if it holds a
// content git has (old or new, the journal's blob ids), else kept, and
// reported, for a person to look at: it may be what someone saved.
func (s *Store) returnAside(full string, known ...string) {
	aside := s.asideName(full)
	fi, err := os.Lstat(aside)
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	if err := renameNoReplace(aside, full); err == nil {
		return
	}
	if b, err := os.ReadFile(aside); err == nil {
		id := hashObject(plumbing.BlobObject, b).String()
		for _, k := range known {
			if k != "" && k == id {
				os.Remove(aside)
				return
			}
		}
	}
	s.log.Warn("a crashed commit left a file aside that may hold someone's edit; look at it", "file", aside, "for", full)
}
