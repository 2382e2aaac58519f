package gitstore

import (
	"bytes"
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

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/noreplace"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/textdiff"
)

// A person's editor writes a note without any of git's locks, at any moment:
// appending to it, rewriting it in place, or renaming a new file over it.
// The worktree check reads each touched file under index.lock, but objects
// and temporary files are written after it; a file replaced or removed
// without looking again would lose what the editor saved in between. So
// every file wikid replaces or removes in the checkout goes through
// replaceChecked.
//
// A file is replaced by swapping names (see swap): the new file takes the
// note's name and the old one a hidden name beside it, in one step, so that
// the note's path never disappears, not for a microsecond: an editor that
// appends at any moment appends to the old file or to the new one, never
// to a fresh file of its own. The old file is then compared with what the
// check saw. If someone changed it since (in place, or by renaming their
// own file over the note), the names are swapped back: the commit fails
// with errChanged and their file is the note, as they saved it. A write
// that reaches the old file later, through a descriptor opened before the
// swap, is merged into the note (see hold). A file is only ever removed
// once it is known to hold what git has.
//
// Where the system cannot swap two names in one step (see
// noreplace.Exchange) the old file is hard-linked to the hidden name, and
// the new file renamed over the note: the note's path never disappears
// either, but a file someone renames over the note in the microseconds
// between the link and the rename is replaced. On a file system without
// hard links the old file is copied instead, and a write in those
// microseconds is lost with it.

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
	_, ok := st.read(name)
	return ok
}

// read returns the content of the regular file at name if it has the
// state's content.
func (st fileState) read(name string) ([]byte, bool) {
	fi, err := os.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != st.size {
		return nil, false
	}
	b, err := os.ReadFile(name)
	if err != nil || gitformat.HashObject(plumbing.BlobObject, b) != st.id {
		return nil, false
	}
	return b, true
}

// swap puts a file in place of another without the place ever missing
// (noreplace.Swap); tests replace it to run the fallback.
var swap = noreplace.Swap

// replaceChecked puts the file tmp (a temporary file in the same folder) at
// full, or removes full when tmp is "", provided full is still as want
// says. If it is not, full is left as it is (what was moved aside is put
// back) and errChanged returned; tmp is removed.
//
// The old file goes to asideName(full, kind) first: should the process die
// before it is put back or removed, recovery finds it there (see
// returnAside). With keep set, it stays there and its name is returned, so
// that a rollback can swap it back, which needs no space on a full disk;
// the caller removes it.
func (s *Store) replaceChecked(full, tmp string, want fileState, kind string, keep bool) (aside string, err error) {
	if tmp != "" {
		defer func() {
			if err != nil {
				os.Remove(tmp)
			}
		}()
	}
	switch {
	case tmp == "":
		return "", s.removeChecked(full, want, kind)
	case !want.present:
		if err := noreplace.Rename(tmp, full); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return "", errChanged // created since
			}
			return "", err
		}
		return "", nil
	}
	ours, err := os.ReadFile(tmp)
	if err != nil {
		return "", err
	}
	// The new file takes a name recovery knows before it is swapped in:
	// once swapped, that name holds the old file.
	in := s.asideName(full, kind+asideIn)
	if err := os.Rename(tmp, in); err != nil {
		return "", err
	}
	tmp, aside = in, s.asideName(full, kind)
	put, _ := os.Lstat(in)
	if err := swap(in, full, aside); err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, noreplace.ErrReplaced) {
			return "", errChanged // removed or replaced since the check
		}
		return "", err
	}
	tmp = ""
	s.crashPoint("swapped in")
	old, ok := want.read(aside)
	if !ok {
		return "", s.swapBack(full, aside, ours, put)
	}
	if keep {
		return aside, nil
	}
	s.hold(aside, heldFile{full: full, base: old, given: ours, fix: ours})
	return "", nil
}

// swapBack gives the note back the file that was swapped out to aside,
// which someone changed since the check, and takes back the file put in
// its place (put, which held ours). It returns errChanged. What someone
// wrote to that file in the moment it was in place is merged into the
// note (see hold); a file renamed over it then stays the note, with the
// lines of aside it lacks. So does an editor's save, soon after, from ours
// read before the swap (see repairStale).
func (s *Store) swapBack(full, aside string, ours []byte, put os.FileInfo) error {
	mine := s.asideName(full, asideBack)
	now, _ := os.ReadFile(aside) // what full will hold: read before anyone can change it there
	err := errChanged
	if fi, e := os.Lstat(full); e == nil && os.SameFile(fi, put) {
		err = swap(aside, full, mine)
	}
	s.crashPoint("given back")
	switch cur, rerr := os.ReadFile(full); {
	case errors.Is(err, errChanged) && rerr == nil:
		if merged, _ := textdiff.AppendAdded(nil, cur, now); !bytes.Equal(merged, cur) {
			s.writeOver(full, merged, stateOf(cur)) // saved again meanwhile: that stays
		}
		s.hold(aside, heldFile{full: full, base: now, given: ours})
	case err != nil: // the note is gone or cannot be swapped: what was saved stays beside it
		return fmt.Errorf("%w; what was saved is kept as %s", errChanged, s.keepCopy(aside, full))
	default:
		fix, _ := textdiff.AppendAdded(nil, ours, now)
		s.hold(mine, heldFile{full: full, base: ours, given: now, fix: fix})
	}
	return errChanged
}

// removeChecked removes full provided it is still as want says; else it
// leaves it, and returns errChanged. The file is moved aside, compared,
// then its name removed (see hold).
func (s *Store) removeChecked(full string, want fileState, kind string) error {
	if !want.present {
		return nil
	}
	aside := s.asideName(full, kind)
	if err := os.Rename(full, aside); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return errChanged // removed since the check
		}
		return err
	}
	s.crashPoint("moved aside")
	old, ok := want.read(aside)
	if !ok {
		if err := noreplace.Rename(aside, full); err != nil {
			// Saved again in the moment the file was aside.
			return fmt.Errorf("%w; one of the two saves is kept as %s", errChanged, s.keepCopy(aside, full))
		}
		return errChanged
	}
	s.hold(aside, heldFile{full: full, base: old, gone: true})
	return nil
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
	f     *os.File
	full  string
	base  []byte // the held file's content when it was compared
	given []byte // what full was given in its place
	gone  bool   // full was removed, not given anything
	fix   []byte // if set, a save of full that lacks the lines base → fix added gets them back (see repairStale)
	since time.Time
}

// hold removes the name of the old file of h.full, and keeps the file open
// for holdFor: a write an editor makes through a descriptor it opened
// before the commit, however late, lands in it, and sweep merges it into
// the note. Without holding, the bytes would vanish with the file. A
// write that reached it already is merged at once.
func (s *Store) hold(name string, h heldFile) {
	f, err := os.Open(name)
	os.Remove(name)
	if err != nil {
		return
	}
	h.f, h.since = f, time.Now()
	if b, changed, settled := h.written(); changed && settled {
		s.putLate(&h, b, false)
	}
	if h.fix != nil {
		s.checkStale(h, 0)
	}
	s.held = append(s.held, h)
	switch {
	case len(s.held) > maxHeld:
		s.sweep(time.Time{})
	case s.sweeper == nil:
		s.sweeper = time.AfterFunc(holdFor, s.sweepLater)
	}
}

// settle is how long a file that differs from what wikid last saw is given
// before it is read again: an editor that rewrites a file in place empties
// it first, and what it holds in between is no one's save.
const settle = 20 * time.Millisecond

// written returns the held file's content and whether someone wrote to it
// since it was compared (changed), and if so whether it held the same bytes
// again after settle (settled).
func (h *heldFile) written() (b []byte, changed, settled bool) {
	read := func() ([]byte, error) { return io.ReadAll(io.NewSectionReader(h.f, 0, 1<<40)) }
	b, err := read()
	if err != nil || bytes.Equal(b, h.base) {
		return nil, false, false
	}
	time.Sleep(settle)
	again, err := read()
	return again, true, err == nil && bytes.Equal(again, b)
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

// sweep closes the held files held since before: one written to since is
// merged into the note (see putLate), and a note saved since from what it
// was before the commit gets the commit's change back (see repairStale).
// The zero time sweeps them all. The caller holds s.write.
func (s *Store) sweep(before time.Time) {
	held := s.held
	s.held = nil // putLate may hold files again
	for _, h := range held {
		if !before.IsZero() && h.since.After(before) {
			s.held = append(s.held, h)
			continue
		}
		b, changed, settled := h.written()
		again := changed && !before.IsZero() && len(held) < maxHeld
		if again && (!settled || !s.putLate(&h, b, false)) {
			h.since = time.Now() // written to as we look, or the note saved as we merge: again later
			s.held = append(s.held, h)
			continue
		}
		h.f.Close()
		if changed && !again {
			s.putLate(&h, b, true)
		}
		if h.fix != nil {
			s.repairStale(h)
		}
	}
}

// putLate merges what was written to an old file of the checkout after the
// commit that replaced or removed it (late, the old file's content now)
// into the note: the lines added or changed since h.base go into the note
// as it is now, so that both the commit's change and the late write are in
// it (both appended lines are kept, ours first). Where they change the
// same lines, the lines a late write only added go at the end of the note;
// one that changed lines takes the note's place when the note is still as
// the commit left it (the commit keeps its version), else the lines it
// added to that go at the end, or it is kept beside the note as a conflict
// copy. h.base becomes late, and h.fix gets the lines late added: a save
// from late is as stale as one from the old base (see repairStale).
//
// A note saved again, or found empty (an editor that rewrites it in place
// empties it first), at each of a few tries is left as it is unless last
// is set (it returns false): an editor saving in quick succession is let
// be, and the held file merged at the next sweep.
func (s *Store) putLate(h *heldFile, late []byte, last bool) (done bool) {
	defer func() {
		if !done {
			return
		}
		if h.fix != nil {
			h.fix, _ = textdiff.AppendAdded(h.base, late, h.fix)
		}
		h.base = late
	}()
	for range 3 {
		cur, err := os.ReadFile(h.full)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			s.putNew(h.full, late) // back in place of a removed note
			return true
		case err != nil || h.gone:
			s.keepBytes(h.full, late)
			return true
		case len(cur) == 0 && len(h.base) > 0: // emptied by an editor that rewrites it in place: its save is under way
			time.Sleep(settle)
			continue
		}
		merged, _, err := textdiff.Merge3Additions(h.base, cur, late)
		if ok := false; err != nil {
			switch merged, ok = textdiff.AppendAdded(h.base, cur, late); {
			case ok:
			case bytes.Equal(cur, h.given):
				merged = late // the same lines changed: the person's save wins on disk
			default: // saved from what the note was given, into the old file?
				if merged, ok = textdiff.AppendAdded(h.given, cur, late); !ok {
					s.keepBytes(h.full, late)
					return true
				}
			}
		}
		if bytes.Equal(merged, cur) {
			return true
		}
		if err := s.writeOver(h.full, merged, stateOf(cur)); !errors.Is(err, errChanged) {
			if err != nil {
				s.keepBytes(h.full, late)
			}
			return true
		}
		// Saved again meanwhile: merge into that.
	}
	if last {
		s.keepBytes(h.full, late)
	}
	return last
}

// staleWindow is how soon after a commit a save of its note that lacks the
// commit's added lines is taken for an editor's save from what it had read
// before the commit, rather than a person's removal of those lines (which
// takes a person longer than that to decide on): see repairStale, looked
// at at each of staleChecks after the commit, and when the old file is let
// go. An editor that saves again from what it read just before a repair
// undoes the repair: the next look repairs again.
var staleWindow = 500 * time.Millisecond // a variable for tests on a busy machine

var staleChecks = []time.Duration{50 * time.Millisecond, 150 * time.Millisecond, 300 * time.Millisecond, 450 * time.Millisecond}

// checkStale looks at h's note for a stale save (see repairStale) at
// staleChecks[i] after the commit, then at the next.
func (s *Store) checkStale(h heldFile, i int) {
	if i >= len(staleChecks) {
		return
	}
	time.AfterFunc(time.Until(h.since.Add(staleChecks[i])), func() {
		s.write.Lock()
		defer s.write.Unlock()
		if s.closed.Load() {
			return
		}
		s.repairStale(h)
		s.checkStale(h, i+1)
	})
}

// repairStale gives back the commit's change (h.base → h.fix) to a note
// that an editor saved, soon after the commit (staleWindow), from what it
// had read before it: a save that holds none of the lines the commit
// added, and still every line it removed, is merged with the commit's
// change (its own lines kept). It repairs only a commit that added lines,
// never one that removed some, and never a note saved later, which is a
// person's choice. A save in the moment of the repair makes it look again,
// a few times. A person's save given back (see swapBack) is repaired so
// too: its added lines go at the end of a save from the commit's file.
func (s *Store) repairStale(h heldFile) {
	if h.gone {
		return
	}
	for range 5 {
		fi, err := os.Lstat(h.full)
		if err != nil || fi.ModTime().After(h.since.Add(staleWindow)) {
			return
		}
		cur, err := os.ReadFile(h.full)
		if err != nil || len(cur) == 0 && len(h.base) > 0 || bytes.Equal(cur, h.fix) || !textdiff.SavedFrom(h.base, h.fix, cur) { // empty: a save under way
			return
		}
		merged, _, err := textdiff.Merge3Additions(h.base, cur, h.fix)
		if err != nil || bytes.Equal(merged, cur) {
			return
		}
		switch err := s.writeOver(h.full, merged, stateOf(cur)); {
		case err == nil:
			s.log.Info("a note saved from what it held before a commit got the commit's change back", "file", h.full)
			return
		case !errors.Is(err, errChanged):
			return
		}
	}
}

// writeOver puts content at full, provided full is still as want says
// (errChanged if not).
func (s *Store) writeOver(full string, content []byte, want fileState) error {
	tmp, err := s.writeTemp(filepath.Dir(full), content, 0o666, false)
	if err != nil {
		return err
	}
	_, err = s.replaceChecked(full, tmp, want, asideLate, false)
	return err
}

// putNew puts content at full, where there is no file, else beside it as
// a conflict copy.
func (s *Store) putNew(full string, content []byte) {
	tmp, err := s.writeTemp(filepath.Dir(full), content, 0o666, false)
	if err != nil {
		s.log.Warn("what someone saved during a commit could not be kept", "file", full, "err", err)
		return
	}
	if noreplace.Rename(tmp, full) != nil {
		s.keepCopy(tmp, full)
	}
}

// keepBytes keeps content beside full, as a conflict copy.
func (s *Store) keepBytes(full string, content []byte) {
	tmp, err := s.writeTemp(filepath.Dir(full), content, 0o666, false)
	if err != nil {
		s.log.Warn("what someone saved during a commit could not be kept", "file", full, "err", err)
		return
	}
	s.keepCopy(tmp, full)
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

// The kinds of aside files: the old file a commit replaced or removed,
// the new one a rollback takes back, the old one a late write's merge
// replaced, and the new one a failed comparison takes back (see swapBack);
// asideIn is added to a kind for the new file while it waits to be swapped
// in.
const (
	asideOld  = "aside"
	asideNew  = "undo"
	asideLate = "late"
	asideBack = "back"
	asideIn   = "-in"
)

// asideKinds are the kinds of aside files recovery looks for.
var asideKinds = []string{asideOld, asideNew, asideLate, asideBack,
	asideOld + asideIn, asideNew + asideIn, asideLate + asideIn}

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
	for _, kind := range asideKinds {
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

// renameBack puts the old file of full, swapped out to aside by
// replaceChecked, back in its place (the commit did not land), provided
// full is still as the commit left it (ours). If someone saved it since,
// their file stays the note, as they saved it (with the commit's change if
// they kept it): put back, the old file would hide their save from an
// editor that reads the note before it could be merged back. A save in the
// moment of the swap gets the note back at once (see swapBack), and a
// write to either file through a descriptor opened before is merged into
// the note (see hold). It needs no space on the disk but for such a merge.
func (s *Store) renameBack(full, aside string, old, ours []byte) error {
	mine := s.asideName(full, asideNew)
	back, _ := os.ReadFile(aside) // what full will hold: read before anyone can change it there
	err, put := errChanged, os.FileInfo(nil)
	if stateOf(ours).holds(full) {
		put, _ = os.Lstat(aside)
		err = swap(aside, full, mine)
	}
	s.crashPoint("put back")
	switch {
	case errors.Is(err, errChanged) || errors.Is(err, fs.ErrNotExist): // saved or removed since
		s.hold(aside, heldFile{full: full, base: old, given: ours})
		return errChanged
	case err != nil:
		return err
	case !stateOf(ours).holds(mine):
		return s.swapBack(full, mine, back, put)
	}
	s.hold(mine, heldFile{full: full, base: ours, given: back})
	return nil
}
