package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/gitstore/internal/gitindex"
	"github.com/wikid/wikid/internal/gitstore/internal/journal"
)

// recoverAll rolls back the journaled transactions of processes that are
// gone (see journal). Open calls it; a failure is logged, and the next
// commit that meets the transaction's lock tries again or reports it.
func (s *Store) recoverAll(ctx context.Context) {
	for _, j := range s.journals() {
		if j.Alive() {
			continue
		}
		if err := s.recoverTxn(ctx, j); err != nil {
			s.log.Warn("a crashed transaction could not be rolled back", "journal", j.File(), "err", err)
		}
	}
}

// recoverTxn rolls back the transaction of j, whose process is gone: its
// HEAD and ref locks are removed if they hold j's commit; under its index lock (taken
// over if it is still there, else taken anew with the same content) the
// checkout files it touched and their index entries are put back to HEAD's
// where they still hold what it wrote; its temporary files are removed, then
// its index lock and its journal. If the branch already moved to j's
// commit, the files are HEAD's already and only the locks and files go.
// It returns an error of code LOCKED when someone else's index lock is in
// the way (the journal stays for a later try).
func (s *Store) recoverTxn(ctx context.Context, j *journal.Journal) error {
	if !j.Claim() {
		return nil // another process recovers it, or did
	}
	s.log.Warn("rolling back the commit of a wikid process that is gone",
		"journal", j.Name(), "branch", j.Branch, "parent", j.Parent, "commit", j.Commit, "files", len(j.Paths))
	if j.Commit != "" && bytes.Equal(readHead(s.headPath()+".lock", 64), j.RefLockContent()) {
		if err := os.Remove(s.headPath() + ".lock"); err != nil && !errors.Is(err, fs.ErrNotExist) {
			j.Unclaim()
			return fmt.Errorf("recover: remove HEAD.lock: %w", err)
		}
	}
	var refDir string
	if j.Branch != "" && gitformat.CheckRefName(j.Branch) == nil {
		ref := filepath.Join(s.commonDir, filepath.FromSlash(j.Branch))
		refDir = filepath.Dir(ref)
		if j.Commit != "" && bytes.Equal(readHead(ref+".lock", 64), j.RefLockContent()) {
			if err := os.Remove(ref + ".lock"); err != nil && !errors.Is(err, fs.ErrNotExist) {
				j.Unclaim()
				return fmt.Errorf("recover: remove %s.lock: %w", ref, err)
			}
		}
	}
	prev := s.tag
	s.tag = j.Tag() // a rollback killed half-way leaves files this journal names
	defer func() { s.tag = prev }()
	if s.workTree != "" {
		lock := s.indexPath() + ".lock"
		if !bytes.Equal(readHead(lock, 128), j.IndexLockContent()) {
			if err := s.createLock(lock, j.IndexLockContent(), false, ""); err != nil {
				j.Unclaim()
				if errors.Is(err, fs.ErrExist) {
					owner, _ := s.lockOwner(lock)
					return lockedError(lock, owner)
				}
				return lockCreateError(lock, err)
			}
		}
		err := s.restorePaths(j)
		s.removeTemps(j, refDir)
		os.Remove(lock)
		if err != nil {
			j.Unclaim()
			return fmt.Errorf("recover: %w", err)
		}
	} else {
		s.removeTemps(j, refDir)
	}
	s.removeJournal(j)
	return ctx.Err()
}

// restorePaths puts the files of j and their index entries back to HEAD's.
// A file is rewritten only when it holds what j wrote (or, for a delete,
// is missing); an index entry only when it holds what j staged. Anything
// else was changed by someone since and is left alone. The caller holds
// the index lock.
func (s *Store) restorePaths(j *journal.Journal) error {
	head, err := s.readHead()
	if err != nil {
		return err
	}
	root, err := s.rootTree(head.Commit)
	if err != nil {
		return err
	}
	ix, err := gitindex.Read(s.indexPath(), nil)
	if err != nil {
		return err
	}
	var done []written
	for _, p := range j.Paths {
		parts, err := splitPath(p.Path)
		if err != nil {
			continue
		}
		e, inHead, err := s.lookup(root, parts)
		if err != nil {
			return err
		}
		if inHead && !gitformat.IsRegularMode(e.Mode) {
			continue
		}
		c := &change{path: p.Path, parts: parts, delete: !inHead, mode: gitformat.ModeFile}
		if inHead {
			c.mode, c.blob = e.Mode, e.ID
		}
		full := filepath.Join(s.workTree, filepath.FromSlash(p.Path))
		s.returnAside(full, p.Old, p.New)
		disk, ok := diskState(full)
		if !ok {
			continue // a folder, a symlink, unreadable: not what j wrote
		}
		present := disk.present
		clean := present == inHead && (!inHead || disk.id == c.blob)
		rewritten := false
		if !clean && ((p.New != "" && present && disk.id.String() == p.New) || (p.New == "" && !present && inHead)) {
			switch err := s.restoreFile(c, full, disk); {
			case errors.Is(err, errChanged):
				s.log.Warn("a file of the crashed commit changed since; left as it is", "path", p.Path)
				continue
			case err != nil:
				return err
			}
			clean, rewritten = true, true
		} else if !clean {
			s.log.Warn("a file of the crashed commit changed since; left as it is", "path", p.Path)
		}
		if ix == nil {
			continue
		}
		ie, n := ix.Lookup(p.Path)
		if n > 1 || (n == 1 && ie.Stage() != 0) {
			continue // unmerged: someone else's doing
		}
		var staged plumbing.Hash
		if n == 1 {
			staged = ie.ID()
		}
		indexClean := (n == 1) == inHead && staged == c.blob
		ours := (p.New != "" && n == 1 && staged.String() == p.New) || (p.New == "" && n == 0 && p.Old != "")
		switch {
		case indexClean && !rewritten, !indexClean && !ours:
			continue
		case c.delete:
			done = append(done, written{c: c})
		default:
			fi, err := os.Lstat(full)
			if err != nil || !clean {
				fi = nil
			}
			done = append(done, written{c: c, fi: fi})
		}
	}
	if len(done) == 0 || ix == nil {
		return nil
	}
	skip := make(map[string]bool, len(done))
	for _, w := range done {
		skip[w.c.path] = true
	}
	ix.SmudgeRacy(s.workTree, skip, nil)
	if err := s.replaceFile(s.indexPath(), ix.Rewrite(indexUpdates(done), nil), 0o666, nil); err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	return nil
}

// diskState returns the state of a checkout file; ok is false when it is
// not a regular file or cannot be read.
func diskState(full string) (st fileState, ok bool) {
	fi, err := os.Lstat(full)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return st, true
	}
	if err != nil || !fi.Mode().IsRegular() {
		return st, false
	}
	b, err := os.ReadFile(full)
	if err != nil {
		return st, false
	}
	return stateOf(b), true
}

// restoreFile puts HEAD's content of c at full (removing the file, and the
// folders that leaves empty, when HEAD has none), provided the file is
// still as disk says; else it returns errChanged and leaves it.
func (s *Store) restoreFile(c *change, full string, disk fileState) error {
	if c.delete {
		if _, err := s.replaceChecked(full, "", disk, asideOld, false); err != nil {
			return err
		}
		s.removeEmptyFolders(filepath.Dir(full))
		return nil
	}
	_, content, err := s.readObject(c.blob)
	if err != nil {
		return fmt.Errorf("restore %q: %w", c.path, err)
	}
	if err := os.MkdirAll(filepath.Dir(full), 0o777); err != nil {
		return fmt.Errorf("restore %q: %w", c.path, err)
	}
	tmp, err := s.writeTemp(filepath.Dir(full), content, gitPerm(c.mode), false)
	if err != nil {
		return fmt.Errorf("restore %q: %w", c.path, err)
	}
	if _, err := s.replaceChecked(full, tmp, disk, asideOld, false); err != nil {
		if errors.Is(err, errChanged) {
			return err
		}
		return fmt.Errorf("restore %q: %w", c.path, err)
	}
	return nil
}

// removeEmptyFolders removes dir and its parents below the checkout's top
// while they are empty.
func (s *Store) removeEmptyFolders(dir string) {
	for d := dir; d != s.workTree && strings.HasPrefix(d, s.workTree) && d != filepath.Dir(d); d = filepath.Dir(d) {
		if os.Remove(d) != nil {
			return
		}
	}
}

// removeTemps deletes the temporary files of j: .wikid-<tag>-*.tmp next to
// its files, the index and its ref, and tmp_obj_<tag>* among the loose
// objects.
func (s *Store) removeTemps(j *journal.Journal, refDir string) {
	dirs := map[string]bool{s.gitDir: true}
	if refDir != "" {
		dirs[refDir] = true
	}
	if s.workTree != "" {
		for _, p := range j.Paths {
			dirs[filepath.Dir(filepath.Join(s.workTree, filepath.FromSlash(p.Path)))] = true
		}
	}
	prefix := ".wikid-" + j.Tag() + "-"
	for d := range dirs {
		s.removeMatching(d, prefix, ".tmp")
		if s.workTree != "" && strings.HasPrefix(d, s.workTree+string(filepath.Separator)) {
			s.removeEmptyFolders(d) // made for a new file that never got there
		}
	}
	objects := s.objectsDir()
	entries, err := os.ReadDir(objects)
	if err != nil {
		return
	}
	for _, e := range entries {
		if len(e.Name()) == 2 && e.IsDir() {
			s.removeMatching(filepath.Join(objects, e.Name()), "tmp_obj_"+j.Tag(), "")
		}
	}
}

// removeMatching removes the files of dir named prefix*suffix.
func (s *Store) removeMatching(dir, prefix, suffix string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if n := e.Name(); strings.HasPrefix(n, prefix) && strings.HasSuffix(n, suffix) {
			if err := os.Remove(filepath.Join(dir, n)); err != nil {
				s.log.Warn("a temporary file of a crashed commit could not be removed", "file", n, "err", err)
			}
		}
	}
}
