package gitstore

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/gitstore/internal/gitindex"
	"github.com/wikid/wikid/internal/wiki"
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
func (s *Store) checkFiles(changes []*change, ix *gitindex.File) error {
	var local []localChange
	for _, c := range changes {
		if reason := s.checkFile(c); reason != "" {
			local = append(local, localChange{c.path, reason})
		} else if reason := indexCheck(ix, c); reason != "" {
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
	e := wiki.Errorf(wiki.CodeLocalChanges, "the checkout has uncommitted changes to %s", strings.Join(names, ", "))
	e.Details = map[string]any{"paths": paths}
	return e.WithHint("commit or stash them (git commit, git stash -u), or discard them, then retry")
}

// checkFile returns why the file on disk differs from the parent, or "";
// a file that already holds what the commit writes does not differ.
// A file that is as in the parent is remembered in c (content and
// permissions), so that a rolled-back commit can put it back.
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
		// An untracked file that already holds what the commit writes is
		// no local change: it is adopted as it is (and kept, should the
		// commit be rolled back). That is how a note dropped from the index
		// by someone else's git command, and still on disk, comes back.
		if !c.delete && fi.Mode().IsRegular() {
			if b, err := os.ReadFile(full); err == nil && bytes.Equal(b, c.content) {
				c.disk, c.diskPerm = b, fi.Mode().Perm()
				c.onDisk = fileState{present: true, size: int64(len(b)), id: c.blob}
				return ""
			}
		}
		return "untracked"
	case !fi.Mode().IsRegular():
		return "not a regular file on disk"
	case s.cfg.FileMode && (fi.Mode()&0o100 != 0) != (c.old.Mode == gitformat.ModeExec):
		return "mode changed"
	}
	b, err := os.ReadFile(full)
	if err != nil {
		return err.Error()
	}
	id := gitformat.HashObject(plumbing.BlobObject, b)
	if id != c.old.ID && (c.delete || id != c.blob) {
		// A file that already holds what the commit writes is adopted,
		// as an untracked one is above.
		return "modified"
	}
	c.disk, c.diskPerm = b, fi.Mode().Perm()
	c.onDisk = fileState{present: true, size: int64(len(b)), id: id}
	return ""
}

func (s *Store) absent(c *change) string {
	if c.hadOld {
		return "deleted"
	}
	return ""
}

// indexCheck returns why the index entry of a touched path differs from the
// parent (staged or unmerged changes), or "". An entry staged already as
// the commit writes the file does not differ. A nil index has no opinion.
func indexCheck(ix *gitindex.File, c *change) string {
	if ix == nil {
		return ""
	}
	e, n := ix.Lookup(c.path)
	switch {
	case n == 1 && !c.delete && e.Stage() == 0 && e.ID() == c.blob:
		return "" // staged already as the commit writes it
	case !c.hadOld && n > 0:
		return "added to the index"
	case !c.hadOld:
		return ""
	case n == 0:
		return "deleted in the index"
	case n > 1 || e.Stage() != 0:
		return "unmerged"
	case e.ID() != c.old.ID:
		return "staged changes"
	}
	return ""
}

// unwritableIndex returns an error of code READ_ONLY if the index uses an
// extension that must be understood to rewrite it (see
// gitindex.File.Unwritable). A nil index has none.
func unwritableIndex(ix *gitindex.File) error {
	if ix == nil {
		return nil
	}
	switch sig := ix.Unwritable(); sig {
	case "":
		return nil
	case "link":
		return wiki.Errorf(wiki.CodeReadOnly, "the index is split (core.splitIndex), which wikid cannot write").
			WithHint("run git update-index --no-split-index, then retry")
	case "sdir":
		return wiki.Errorf(wiki.CodeReadOnly, "the index is sparse, which wikid cannot write").
			WithHint("run git sparse-checkout disable, then retry")
	default:
		return wiki.Errorf(wiki.CodeReadOnly, "the index has the extension %q, which wikid cannot write", sig).
			WithHint("make this change with git; wikid does not know the index format this git writes")
	}
}
