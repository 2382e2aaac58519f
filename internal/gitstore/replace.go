package gitstore

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/gitformat"
	"github.com/wikid/wikid/internal/noreplace"
	"github.com/wikid/wikid/internal/note"
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
// fails with errChanged. A file is only ever removed once it is known to
// hold what git has. For a few microseconds the file is missing, as when
// git checks a file out. (Swapping the two files atomically, with Linux's
// RENAME_EXCHANGE, would leave no such moment, but swapping them back after
// a failed comparison can replace a file someone saved in that moment: an
// editor that saved twice in a row would have one of its saves hidden.)

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
	return fileState{present: true, size: int64(len(content)), id: gitformat.HashObject(plumbing.BlobObject, content)}
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
	return err == nil && gitformat.HashObject(plumbing.BlobObject, b) == st.id
}

// replaceChecked puts the file tmp (a temporary file in the same folder) at
// full, or removes full when tmp is "", provided full is still as want
// says. If it is not, full is left as it is (what was moved aside is put
// back) and errChanged returned; tmp is removed.
//
// The old file is moved aside to asideName(full, kind) first: should the
// process die before it is put back or removed, recovery finds it there
// (see returnAside). With keep set, it stays there and its name is
// returned, so that a rollback can rename it back, which needs no space on
// a full disk; the caller removes it.
func (s *Store) replaceChecked(full, tmp string, want fileState, kind string, keep bool) (aside string, err error) {
	if tmp != "" {
		defer func() {
			if err != nil {
				os.Remove(tmp)
			}
		}()
	}
	if want.present {
		aside = s.asideName(full, kind)
		if err := os.Rename(full, aside); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return "", errChanged // removed since the check
			}
			return "", err
		}
		s.crashPoint("moved aside")
		if !want.holds(aside) {
			if err := noreplace.Rename(aside, full); err != nil {
				// Saved again in the moment the file was aside.
				return "", fmt.Errorf("%w; one of the two saves is kept as %s", errChanged, s.keepCopy(aside, full))
			}
			return "", errChanged
		}
	}
	if tmp != "" {
		if err := noreplace.Rename(tmp, full); err != nil {
			if aside != "" {
				s.drop(aside, full, want) // what the check saw: HEAD's content, or the new one
			}
			if errors.Is(err, fs.ErrExist) {
				return "", errChanged // created since
			}
			return "", err
		}
	}
	if aside == "" || keep {
		return aside, nil
	}
	if want.holds(aside) {
		s.hold(aside, full, want, fileState{})
		return "", nil
	}
	// Written to since it was compared, through a descriptor opened before
	// it was moved: what was saved is kept, back in place of a removed
	// file, else beside the new one.
	if tmp == "" && noreplace.Rename(aside, full) == nil {
		return "", errChanged
	}
	copyName := s.keepCopy(aside, full)
	if tmp == "" {
		return "", fmt.Errorf("%w; it is kept as %s", errChanged, copyName)
	}
	return "", nil
}

// drop removes a file moved aside once it is known to hold st, what git
// has (see hold). One written to since it was compared (through a
// descriptor opened before it was moved) holds what someone saved: it is
// kept beside full, as a conflict copy.
func (s *Store) drop(aside, full string, st fileState) {
	if st.holds(aside) {
		s.hold(aside, full, st, fileState{})
		return
	}
	s.keepCopy(aside, full)
}

// holdFor is how long an old checkout file is held open after its name is
// removed (see hold), and maxHeld how many are held at most: past it, all
// are swept at once.
const (
	holdFor = 2 * time.Second
	maxHeld = 256
)

// heldFile is an old checkout file whose name is gone, held open: an
// editor that opened it before the commit moved it may still write to it.
type heldFile struct {
	f         *os.File
	full      string
	was, ours fileState // the old file as compared, and what replaced it
	since     time.Time
}

// hold removes the name of aside, a file moved aside for full that holds
// was, and keeps the file open for holdFor: a write an editor makes through
// a descriptor it opened before the commit, however late, lands in it, and
// sweep puts it back. Without holding, the bytes would vanish with the
// file. ours is the state full was given ("absent" for a removal).
func (s *Store) hold(aside, full string, was, ours fileState) {
	f, err := os.Open(aside)
	os.Remove(aside)
	if err != nil {
		return
	}
	s.held = append(s.held, heldFile{f: f, full: full, was: was, ours: ours, since: time.Now()})
	switch {
	case len(s.held) > maxHeld:
		s.sweep(time.Time{})
	case s.sweeper == nil:
		s.sweeper = time.AfterFunc(holdFor, s.sweepLater)
	}
}

// sweepLater sweeps the held files old enough, and comes back for the
// others: nothing is held much past holdFor, even when no commit follows.
func (s *Store) sweepLater() {
	s.write.Lock()
	defer s.write.Unlock()
	s.sweeper = nil
	if s.closed.Load() {
		return
	}
	s.sweep(time.Now().Add(-holdFor))
	if len(s.held) > 0 && s.sweeper == nil {
		s.sweeper = time.AfterFunc(holdFor, s.sweepLater)
	}
}

// sweep closes the held files held since before: those still as they were
// compared; one written to since gets back in place of full's new content
// when full still has it, else is kept beside it as a conflict copy. The
// zero time sweeps them all. The caller holds s.write.
func (s *Store) sweep(before time.Time) {
	held := s.held
	s.held = nil // putLate may hold files again
	for _, h := range held {
		if !before.IsZero() && h.since.After(before) {
			s.held = append(s.held, h)
			continue
		}
		b, err := io.ReadAll(io.NewSectionReader(h.f, 0, 1<<40))
		h.f.Close()
		if err != nil || (int64(len(b)) == h.was.size && gitformat.HashObject(plumbing.BlobObject, b) == h.was.id) {
			continue
		}
		s.putLate(h, b)
	}
}

// putLate puts content, written to an old file of the checkout after the
// commit that replaced it, back at h.full when full still holds what the
// commit gave it; else beside it, as a conflict copy.
func (s *Store) putLate(h heldFile, content []byte) {
	tmp, err := s.writeTemp(filepath.Dir(h.full), content, 0o666, false)
	if err != nil {
		s.log.Warn("what someone saved during a commit could not be kept", "file", h.full, "err", err)
		return
	}
	if h.ours.present {
		if _, err := s.replaceChecked(h.full, tmp, h.ours, asideNew, false); err == nil {
			return
		}
		if tmp, err = s.writeTemp(filepath.Dir(h.full), content, 0o666, false); err != nil {
			return
		}
	} else if noreplace.Rename(tmp, h.full) == nil {
		return
	}
	s.keepCopy(tmp, h.full)
}

// keepCopy keeps the file aside, which holds what someone saved and could
// not go back in place of full, beside full as a conflict copy, as sync
// names them: "Plan (conflict 2026-11-27 saved during a commit).md". It
// returns the copy's name (aside's when it cannot be renamed).
func (s *Store) keepCopy(aside, full string) string {
	dir, name := filepath.Split(full)
	now := time.Now()
	for n := 1; n < 100; n++ {
		copyName := note.ConflictCopy(name, now, "saved during a commit", n)
		err := noreplace.Rename(aside, filepath.Join(dir, copyName))
		if err == nil {
			s.log.Warn("kept what someone saved during a commit beside the note, as a conflict copy", "file", full, "copy", copyName)
			return copyName
		}
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	s.log.Warn("kept what someone saved during a commit aside; look at it", "file", full, "kept", aside)
	return filepath.Base(aside)
}

// The kinds of aside files: the old file a commit replaced or removed, and
// the new one a rollback takes back.
const (
	asideOld = "aside"
	asideNew = "undo"
)

// asideName is where replaceChecked moves the file full while it looks at
// it: a hidden file in the same folder named after the transaction's tag,
// the file's name and kind, so that recovery finds it from the journal.
func (s *Store) asideName(full, kind string) string {
	sum := sha1.Sum([]byte(filepath.Base(full)))
	tag := s.tag
	if tag == "" {
		tag = "none"
	}
	return filepath.Join(filepath.Dir(full), ".wikid-"+tag+"-"+hex.EncodeToString(sum[:8])+"."+kind)
}

// returnAside handles the files that a process killed inside a commit left
// aside for full: the old file is put back if full is missing; either is
// removed if it holds a content git has (old or new, the journal's blob
// ids), else kept, and reported, for a person to look at: it may be what
// someone saved.
func (s *Store) returnAside(full string, known ...string) {
	for _, kind := range []string{asideOld, asideNew} {
		aside := s.asideName(full, kind)
		fi, err := os.Lstat(aside)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if kind == asideOld && noreplace.Rename(aside, full) == nil {
			continue
		}
		if b, err := os.ReadFile(aside); err == nil && slices.Contains(known, gitformat.HashObject(plumbing.BlobObject, b).String()) {
			os.Remove(aside)
			continue
		}
		s.keepCopy(aside, full) // it may hold what someone saved
	}
}

// renameBack puts the old file of full, moved aside by replaceChecked,
// back in its place by renaming it, provided full is still as the commit
// left it (ours): someone's edit since is kept, and the old file removed
// if it holds what the commit found (was, which git has). It needs no
// space on the disk.
func (s *Store) renameBack(full, aside string, ours, was fileState) error {
	mine := s.asideName(full, asideNew)
	if err := os.Rename(full, mine); err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if was.holds(aside) { // removed since: the removal stands
			s.hold(aside, full, was, fileState{})
		} else if err := noreplace.Rename(aside, full); err != nil {
			s.drop(aside, full, was)
		}
		return errChanged
	}
	if !ours.holds(mine) {
		if err := noreplace.Rename(mine, full); err != nil {
			s.keepCopy(mine, full)
		}
		s.drop(aside, full, was)
		return errChanged
	}
	defer s.hold(mine, full, ours, was)
	if err := noreplace.Rename(aside, full); err != nil {
		s.drop(aside, full, was)
		if errors.Is(err, fs.ErrExist) {
			return errChanged // created since
		}
		return err
	}
	return nil
}
