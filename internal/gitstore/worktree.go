package gitstore

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/note"
)

// localChange is a touched path whose checkout differs from the parent.
type localChange struct {
	path, reason string
}

// checkFiles compares the touched paths of a checkout with the parent: the
// file on disk must have the parent's content (absent when the parent has
// none), its folders must be real folders, and the index must agree with the
// parent. It returns an error of code LOCAL_CHANGES naming the paths that
// differ.
func (s *Store) checkFiles(changes []*change, ix *index) error {
	var local []localChange
	for _, c := range changes {
		if reason := s.checkFile(c); reason != "" {
			local = append(local, localChange{c.path, reason})
		} else if reason := ix.check(c); reason != "" {
			local = append(local, localChange{c.path, reason})
		}
	}
	if len(local) == 0 {
		return nil
	}
	names := make([]string, len(local))
	paths := make([]string, len(local))
	for i, l := range local {
		names[i] = l.path + " (" + l.reason + ")"
		paths[i] = l.path
	}
	e := note.Errorf(note.CodeLocalChanges, "the checkout has uncommitted changes to %s", strings.Join(names, ", "))
	e.Details = map[string]any{"paths": paths}
	return e.WithHint("commit or stash them (git commit, git stash -u), or discard them, then retry")
}

// checkFile returns why the file on disk differs from the parent, or "".
func (s *Store) checkFile(c *change) string {
	dir := s.workTree
	for i, name := range c.parts[:len(c.parts)-1] {
		dir = filepath.Join(dir, name)
		folder := strings.Join(c.parts[:i+1], "/")
		fi, err := os.Lstat(dir)
		if errors.Is(err, fs.ErrNotExist) {
			return s.absent(c)
		}
		switch {
		case err != nil:
			return err.Error()
		case fi.Mode()&fs.ModeSymlink != 0:
			return "folder " + folder + " is a symlink"
		case !fi.IsDir():
			return "folder " + folder + " is a file"
		}
	}
	full := filepath.Join(dir, c.parts[len(c.parts)-1])
	fi, err := os.Lstat(full)
	if errors.Is(err, fs.ErrNotExist) {
		return s.absent(c)
	}
	switch {
	case err != nil:
		return err.Error()
	case !c.hadOld:
		return "untracked"
	case !fi.Mode().IsRegular():
		return "not a regular file on disk"
	case s.cfg.fileMode && (fi.Mode()&0o100 != 0) != (c.old.mode == modeExec):
		return "mode changed"
	}
	b, err := os.ReadFile(full)
	if err != nil {
		return err.Error()
	}
	if hashObject(plumbing.BlobObject, b) != c.old.id {
		return "modified"
	}
	return ""
}

func (s *Store) absent(c *change) string {
	if c.hadOld {
		return "deleted"
	}
	return ""
}

// pendingFile is a file written next to its target, waiting for the rename.
type pendingFile struct {
	c    *change
	full string
	tmp  string
}

// worktreeWrite is the worktree side of a commit: the new files are staged
// as temporary files before the ref moves, renamed into place after.
type worktreeWrite struct {
	s       *Store
	files   []pendingFile
	deletes []*change
	created []string // folders made for new files, deepest first
}

// stageWorktree writes the new contents to temporary files in their target
// folders, creating folders as needed.
func (s *Store) stageWorktree(changes []*change) (*worktreeWrite, error) {
	w := &worktreeWrite{s: s}
	for _, c := range changes {
		if c.delete {
			w.deletes = append(w.deletes, c)
			continue
		}
		full := filepath.Join(s.workTree, filepath.FromSlash(c.path))
		if err := w.mkdirs(filepath.Dir(full)); err != nil {
			w.abort()
			return nil, err
		}
		tmp, err := writeTemp(filepath.Dir(full), c.content, c.mode)
		if err != nil {
			w.abort()
			return nil, fmt.Errorf("write %q: %w", c.path, err)
		}
		w.files = append(w.files, pendingFile{c: c, full: full, tmp: tmp})
	}
	return w, nil
}

// mkdirs creates dir and its missing parents, remembering them for abort.
func (w *worktreeWrite) mkdirs(dir string) error {
	var missing []string
	for d := dir; d != w.s.workTree && d != filepath.Dir(d); d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			break
		}
		missing = append(missing, d)
	}
	for i := len(missing) - 1; i >= 0; i-- {
		if err := os.Mkdir(missing[i], 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("create folder: %w", err)
		}
		w.created = append([]string{missing[i]}, w.created...)
	}
	return nil
}

// writeTemp writes content to a new hidden file in dir with the permissions
// git gives a file of that mode (before the umask).
func writeTemp(dir string, content []byte, mode uint32) (string, error) {
	perm := fs.FileMode(0o666)
	if mode == modeExec {
		perm = 0o777
	}
	var rnd [8]byte
	rand.Read(rnd[:])
	name := filepath.Join(dir, ".wikid-"+hex.EncodeToString(rnd[:])+".tmp")
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return "", err
	}
	if _, err := f.Write(content); err != nil {
		f.Close()
		os.Remove(name)
		return "", err
	}
	if err := f.Close(); err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// abort removes the temporary files and the folders made for them.
func (w *worktreeWrite) abort() {
	for _, f := range w.files {
		os.Remove(f.tmp)
	}
	for _, d := range w.created {
		os.Remove(d) // only if still empty
	}
}

// written is a touched path after the worktree was updated.
type written struct {
	c  *change
	fi os.FileInfo // nil for a delete
}

// apply removes the deleted files (and the folders they leave empty), then
// renames the new files into place and stats them. It keeps going after an
// error and returns the paths it did update.
func (w *worktreeWrite) apply() ([]written, error) {
	var done []written
	var errs []error
	for _, c := range w.deletes {
		full := filepath.Join(w.s.workTree, filepath.FromSlash(c.path))
		if err := os.Remove(full); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("remove %q: %w", c.path, err))
			continue
		}
		for d := filepath.Dir(full); d != w.s.workTree && d != filepath.Dir(d); d = filepath.Dir(d) {
			if os.Remove(d) != nil {
				break
			}
		}
		done = append(done, written{c: c})
	}
	for _, f := range w.files {
		if err := os.Rename(f.tmp, f.full); err != nil {
			os.Remove(f.tmp)
			errs = append(errs, fmt.Errorf("write %q: %w", f.c.path, err))
			continue
		}
		fi, err := os.Lstat(f.full)
		if err != nil {
			errs = append(errs, fmt.Errorf("stat %q: %w", f.c.path, err))
			continue
		}
		done = append(done, written{c: f.c, fi: fi})
	}
	return done, errors.Join(errs...)
}
