package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/gitstore/internal/gitindex"
	"github.com/wikid/wikid/internal/gitstore/internal/tempfile"
	"github.com/wikid/wikid/internal/wiki"
)

// checkoutUpdate is the checkout side of a commit, made under index.lock
// before the branch moves: the touched files are put in place, then an index
// with their entries refreshed is renamed over the old one. Every step is
// recorded with what undoes it, so that the checkout can be put back as it
// was if the branch cannot be moved.
type checkoutUpdate struct {
	s       *Store
	files   []pendingFile // new contents, written next to their targets
	deletes []*change
	undo    []undoStep   // what was done to the worktree, in order
	index   *indexBackup // the index replaced; nil while it was not
}

// pendingFile is a new content written to a temporary file next to its
// target; tmp is "" once it was renamed into place.
type pendingFile struct {
	c         *change
	full, tmp string
}

// undoStep is one change made to the worktree and how to take it back.
type undoStep struct {
	op    undoOp
	path  string      // absolute
	old   []byte      // undoRewrite: the content to put back; nil to remove the file
	new   []byte      // undoRewrite: the content the commit gave the file
	aside string      // undoRewrite: the old file, swapped out, to swap back instead
	perm  fs.FileMode // undoRewrite and undoMkdir: the permissions to put back
	ours  fileState   // undoRewrite: the file as the commit left it
}

type undoOp int

const (
	undoRemove  undoOp = iota // a folder was created: remove it
	undoRewrite               // a file was written or removed: put its old content back
	undoMkdir                 // a folder was removed: create it again
)

// indexBackup is the index file a commit replaced: absent (existed false),
// or a hard link to it (link, renamed back on a rollback, which so needs no
// space) and, where links fail, its bytes, permissions and modification
// time as read. The time is put back too, so that git's racy-entry check
// (an entry whose file is not older than the index is compared by content)
// judges the entries as before.
type indexBackup struct {
	existed bool
	link    string
	content []byte
	perm    fs.FileMode
	mtime   time.Time
}

// updateCheckout puts the changes into the checkout: the new files in place,
// the deleted ones removed with the folders they leave empty, and the index
// (ix, read under index.lock; nil if there is none) rewritten and renamed
// over the old one once objects, which waits for the commit's objects,
// returns nil. On error it puts back what it changed and returns the
// error.
func (s *Store) updateCheckout(ix *gitindex.File, parent plumbing.Hash, changes []*change, objects func() error) (*checkoutUpdate, error) {
	u := &checkoutUpdate{s: s}
	err := u.stage(changes)
	var done []written
	if err == nil {
		s.crashPoint("files staged")
		done, err = u.apply()
	}
	if err == nil {
		s.crashPoint("files in place")
		err = u.writeIndex(ix, parent, done, objects)
	}
	if err == nil {
		s.crashPoint("index written")
	}
	if err != nil {
		if rerr := u.rollback(); rerr != nil {
			return nil, fmt.Errorf("%w (and %w: %w)", err, errNotPutBack, rerr)
		}
		return nil, err
	}
	return u, nil
}

// stage writes the new contents to temporary files in their target folders,
// creating folders as needed, so that a failed write leaves no file half
// written.
func (u *checkoutUpdate) stage(changes []*change) error {
	for _, c := range changes {
		if c.delete {
			u.deletes = append(u.deletes, c)
			continue
		}
		full := filepath.Join(u.s.workTree, filepath.FromSlash(c.path))
		if err := u.mkdirs(filepath.Dir(full)); err != nil {
			return fmt.Errorf("write %q: %w", c.path, err)
		}
		tmp, err := u.s.writeTemp(filepath.Dir(full), c.content, gitPerm(c.mode), false)
		if err != nil {
			return fmt.Errorf("write %q: %w", c.path, err)
		}
		u.files = append(u.files, pendingFile{c: c, full: full, tmp: tmp})
	}
	return nil
}

// mkdirs creates dir and its missing parents.
func (u *checkoutUpdate) mkdirs(dir string) error {
	var missing []string
	for d := dir; d != u.s.workTree && d != filepath.Dir(d); d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			break
		}
		missing = append(missing, d)
	}
	for i := len(missing) - 1; i >= 0; i-- {
		if err := os.Mkdir(missing[i], 0o777); err != nil {
			if errors.Is(err, fs.ErrExist) {
				continue
			}
			return fmt.Errorf("create folder: %w", err)
		}
		u.undo = append(u.undo, undoStep{op: undoRemove, path: missing[i]})
	}
	return nil
}

// written is a touched path after the worktree was updated.
type written struct {
	c  *change
	fi os.FileInfo // nil for a delete
}

// indexUpdates returns the index entries of the paths written.
func indexUpdates(done []written) []gitindex.Update {
	out := make([]gitindex.Update, len(done))
	for i, w := range done {
		out[i] = gitindex.Update{Path: w.c.path, Delete: w.c.delete, Mode: w.c.mode, ID: w.c.blob, Stat: w.fi}
	}
	return out
}

// apply removes the deleted files (and the folders they leave empty), then
// renames the new files into place and stats them for the index. It stops
// at the first error.
//
// A file is replaced or removed only while it still holds what the worktree
// check saw (see replaceChecked): one that someone changed since fails the
// commit with an error of code LOCAL_CHANGES, and keeps what they saved.
func (u *checkoutUpdate) apply() ([]written, error) {
	done := make([]written, 0, len(u.deletes)+len(u.files))
	root := u.s.workTree
	for _, c := range u.deletes {
		full := filepath.Join(root, filepath.FromSlash(c.path))
		if _, err := os.Lstat(full); errors.Is(err, fs.ErrNotExist) {
			// Someone removed it since the check: nothing to do.
		} else if _, err := u.s.replaceChecked(full, "", c.onDisk, asideOld, false); err != nil {
			// The old file is not kept aside, where it would keep its
			// folder from being removed; a rollback writes it again.
			return done, changedError(c.path, "remove", err)
		} else {
			u.undo = append(u.undo, undoStep{op: undoRewrite, path: full, old: c.disk, perm: c.diskPerm})
		}
		for d := filepath.Dir(full); d != root && d != filepath.Dir(d); d = filepath.Dir(d) {
			fi, err := os.Lstat(d)
			if err != nil || os.Remove(d) != nil {
				break // not empty
			}
			u.undo = append(u.undo, undoStep{op: undoMkdir, path: d, perm: fi.Mode().Perm()})
		}
		done = append(done, written{c: c})
	}
	for i := range u.files {
		f := &u.files[i]
		ours := fileState{present: true, size: int64(len(f.c.content)), id: f.c.blob}
		aside, err := u.s.replaceChecked(f.full, f.tmp, f.c.onDisk, asideOld, true)
		f.tmp = "" // taken, or removed
		if err != nil {
			return done, changedError(f.c.path, "write", err)
		}
		u.undo = append(u.undo, undoStep{op: undoRewrite, path: f.full, old: f.c.disk, new: f.c.content, aside: aside,
			perm: f.c.diskPerm, ours: ours})
		fi, err := os.Lstat(f.full)
		if err != nil {
			return done, fmt.Errorf("stat %q: %w", f.c.path, err)
		}
		if fi.Size() != int64(len(f.c.content)) {
			// Someone wrote to the new file already: an index entry
			// without its stat makes git look at its content.
			fi = nil
		}
		done = append(done, written{c: f.c, fi: fi})
	}
	return done, nil
}

// writeIndex writes the index with the entries of the updated paths
// refreshed to a temporary file and renames it over the index, keeping the
// old one in u.index. A checkout without an index gets one only on its first
// commit, whose files are the whole tree; otherwise the index stays missing
// (git status shows every file of HEAD as deleted from the index and
// untracked there, before and after).
func (u *checkoutUpdate) writeIndex(ix *gitindex.File, parent plumbing.Hash, done []written, objects func() error) error {
	s := u.s
	if ix == nil && !parent.IsZero() {
		return nil
	}
	backup := &indexBackup{}
	if ix == nil {
		ix = gitindex.New()
	} else {
		backup.existed, backup.perm, backup.mtime = true, ix.Perm(), ix.ModTime()
	}
	skip := make(map[string]bool, len(done))
	for _, w := range done {
		skip[w.c.path] = true
	}
	ix.SmudgeRacy(s.workTree, skip, &s.racy)
	if backup.existed {
		link := filepath.Join(s.gitDir, ".wikid-"+s.tag+"-index.tmp")
		if os.Link(s.indexPath(), link) == nil {
			backup.link = link
		}
	}
	backup.content = ix.Bytes()
	s.indexOut = ix.RewriteBody(indexUpdates(done), s.indexOut)
	if b := ix.Buffer(); b != nil {
		s.indexIn = b
	}
	if err := s.replaceIndex(ix, s.indexOut, objects); err != nil {
		if backup.link != "" {
			os.Remove(backup.link)
		}
		return fmt.Errorf("write index: %w", err)
	}
	u.index = backup
	return nil
}

// rollback puts the checkout back as it was before the commit: the old
// index (its bytes and modification time), then the worktree, undoing the
// steps newest first. It goes on after an error and returns them all.
func (u *checkoutUpdate) rollback() error {
	var errs []error
	for _, f := range u.files {
		if f.tmp != "" {
			os.Remove(f.tmp)
		}
	}
	if b := u.index; b != nil {
		var err error
		if b.link != "" {
			if err = os.Rename(b.link, u.s.indexPath()); err != nil {
				os.Remove(b.link)
				err = u.s.putBack(u.s.indexPath(), b.content, b.perm, b.mtime)
			}
		} else if b.existed {
			err = u.s.putBack(u.s.indexPath(), b.content, b.perm, b.mtime)
		} else if err = os.Remove(u.s.indexPath()); errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("restore the index: %w", err))
		}
	}
	for i := len(u.undo) - 1; i >= 0; i-- {
		st := u.undo[i]
		var err error
		switch st.op {
		case undoRemove:
			// A folder someone put a file in since is left alone.
			if err = os.Remove(st.path); errors.Is(err, fs.ErrNotExist) || isDir(st.path) {
				err = nil
			}
		case undoRewrite:
			err = u.s.undoRewrite(st)
		case undoMkdir:
			if err = os.Mkdir(st.path, st.perm); err == nil {
				err = os.Chmod(st.path, st.perm) // past the umask
			} else if errors.Is(err, fs.ErrExist) {
				err = nil
			}
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("restore %s: %w", st.path, err))
		}
	}
	u.undo, u.index = nil, nil
	return errors.Join(errs...)
}

// done ends a checkout update whose commit landed: the old files kept for
// a rollback are let go (see hold), and the link to the old index is
// returned ("" for none) for the caller to remove, which frees its blocks.
// An old file written to since it was swapped out, through a descriptor
// opened before, holds what someone saved: it is merged into the note, as
// if they had saved just after the commit.
func (u *checkoutUpdate) done() (oldIndex string) {
	for _, st := range u.undo {
		if st.aside != "" {
			u.s.hold(st.aside, heldFile{full: st.path, base: st.old, given: st.new, fix: st.new})
		}
	}
	if u.index != nil {
		oldIndex = u.index.link
	}
	u.undo, u.index = nil, nil
	return oldIndex
}

// undoRewrite puts back the file of st as it was before the commit, if it is
// still as the commit left it: someone's edit of it since is kept. The old
// file is renamed back from aside where it was moved, else written again.
func (s *Store) undoRewrite(st undoStep) error {
	if st.aside != "" {
		err := s.renameBack(st.path, st.aside, st.old, st.new)
		if errors.Is(err, errChanged) {
			s.log.Warn("a file was changed on disk during a commit that failed; it is kept as it is", "file", st.path, "err", err)
			return nil
		}
		return err
	}
	tmp := ""
	if st.old != nil {
		var err error
		if tmp, err = s.writeTemp(filepath.Dir(st.path), st.old, st.perm, false); err != nil {
			return err
		}
		if err := os.Chmod(tmp, st.perm); err != nil { // past the umask
			os.Remove(tmp)
			return err
		}
	}
	_, err := s.replaceChecked(st.path, tmp, st.ours, asideNew, false)
	if errors.Is(err, errChanged) {
		s.log.Warn("a file was changed on disk during a commit that failed; it is kept as it is", "file", st.path, "err", err)
		return nil
	}
	return err
}

// changedError words the failure of replaceChecked on a checkout file: a
// LOCAL_CHANGES error when someone changed the file since the check.
func changedError(file, op string, err error) error {
	if !errors.Is(err, errChanged) {
		return fmt.Errorf("%s %q: %w", op, file, err)
	}
	msg := "%s was changed on disk while the commit was being made; nothing was committed, and the file is kept as it is"
	if err != errChanged {
		msg += " (" + err.Error() + ")"
	}
	e := wiki.Errorf(wiki.CodeLocalChanges, msg, file)
	e.Details = map[string]any{"paths": []string{file}}
	return e.WithHint("commit or stash the change (git commit, git stash -u), or discard it, then retry")
}

func isDir(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.IsDir()
}

// gitPerm is the permissions git gives a file of mode (before the umask).
func gitPerm(mode uint32) fs.FileMode {
	if mode == gitformat.ModeExec {
		return 0o777
	}
	return 0o666
}

// writeTemp writes content to a new hidden file in dir for the current
// transaction (see tempfile.Write) and returns its name.
func (s *Store) writeTemp(dir string, content []byte, perm fs.FileMode, sync bool) (string, error) {
	return tempfile.Write(dir, s.tag, content, perm, sync)
}

// replaceFile writes content to a temporary file next to name, created
// with permissions perm (before the umask), lets adjust change the file if
// it is not nil, and renames it over name: readers see the old file or the
// new one, never a part of it.
func (s *Store) replaceFile(name string, content []byte, perm fs.FileMode, adjust func(tmp string) error) error {
	tmp, err := s.writeTemp(filepath.Dir(name), content, perm, false)
	if err != nil {
		return err
	}
	if adjust != nil {
		err = adjust(tmp)
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// replaceIndex writes the index file whose body is body (see
// gitindex.File.RewriteBody) to a temporary file, computing its checksum
// meanwhile, and renames it over the index once before returns nil.
func (s *Store) replaceIndex(ix *gitindex.File, body []byte, before func() error) error {
	sum := make(chan []byte, 1)
	go func() { sum <- ix.Checksum(body) }()
	name := s.indexPath()
	f, err := tempfile.Create(filepath.Dir(name), s.tag, 0o666)
	if err != nil {
		<-sum
		return err
	}
	_, err = f.Write(body)
	if b := <-sum; err == nil {
		_, err = f.Write(b)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = before()
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// putBack puts a file back with its content and its exact permissions
// and, if mtime is not zero, its modification time.
func (s *Store) putBack(name string, content []byte, perm fs.FileMode, mtime time.Time) error {
	return s.replaceFile(name, content, perm, func(tmp string) error {
		if err := os.Chmod(tmp, perm); err != nil { // past the umask
			return err
		}
		if mtime.IsZero() {
			return nil
		}
		return os.Chtimes(tmp, time.Time{}, mtime)
	})
}
