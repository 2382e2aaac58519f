package gitstore

import (
	"io/fs"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/wiki"
)

// change is one file of a commit request, resolved against the parent tree.
type change struct {
	path    string
	parts   []string
	delete  bool
	content []byte
	mode    uint32              // mode of the new file
	blob    plumbing.Hash       // id of the new content; zero for a delete
	old     gitformat.TreeEntry // the file in the parent, if hadOld
	hadOld  bool
	// In a checkout, the file on disk as the worktree check found it (the
	// parent's content, or the new one), to put back if the commit is
	// rolled back, and its state, which it must still have when it is
	// replaced or removed; disk is nil and onDisk absent for no file.
	disk     []byte
	diskPerm fs.FileMode
	onDisk   fileState
}

// newTree is a tree object built for a commit and not written yet.
type newTree struct {
	id      plumbing.Hash
	content []byte
	entries []gitformat.TreeEntry
}

// buildTree returns the id of tree id with the changes applied; changes are
// the request's files below this tree, which is depth names deep. Only the
// trees on the changed paths are read and built; the new ones are appended
// to out, to be written once the commit is sure to be made. A tree left
// empty disappears (the zero id is returned for it).
func (s *Store) buildTree(id plumbing.Hash, depth int, changes []*change, out *[]newTree) (plumbing.Hash, error) {
	t, err := s.tree(id)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	entries := slices.Clone(t.entries)
	var writes []*change
	var folders []string
	below := make(map[string][]*change)
	for _, c := range changes {
		name := c.parts[depth]
		switch {
		case len(c.parts) > depth+1:
			if below[name] == nil {
				folders = append(folders, name)
			}
			below[name] = append(below[name], c)
		case c.delete:
			i, ok := gitformat.Search(entries, name, gitformat.ModeFile)
			if !ok {
				return plumbing.ZeroHash, wiki.Errorf(wiki.CodeNotFound, "delete %q: no such file in the parent commit", c.path)
			}
			entries = slices.Delete(entries, i, i+1)
		default:
			writes = append(writes, c)
		}
	}
	for _, name := range folders {
		if _, ok := gitformat.Search(entries, name, gitformat.ModeFile); ok {
			return plumbing.ZeroHash, wiki.Errorf(wiki.CodeInvalidPath,
				"cannot write %q: %q is a file", below[name][0].path, strings.Join(below[name][0].parts[:depth+1], "/"))
		}
		i, ok := gitformat.Search(entries, name, gitformat.ModeTree)
		var sub plumbing.Hash
		if ok {
			sub = entries[i].ID
		}
		nid, err := s.buildTree(sub, depth+1, below[name], out)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		switch {
		case nid.IsZero() && ok:
			entries = slices.Delete(entries, i, i+1)
		case nid.IsZero():
		case ok:
			entries[i].ID = nid
		default:
			entries = slices.Insert(entries, i, gitformat.TreeEntry{Name: name, Mode: gitformat.ModeTree, ID: nid})
		}
	}
	for _, c := range writes {
		name := c.parts[depth]
		if _, ok := gitformat.Search(entries, name, gitformat.ModeTree); ok {
			return plumbing.ZeroHash, wiki.Errorf(wiki.CodeInvalidPath, "cannot write %q: it is a folder", c.path)
		}
		e := gitformat.TreeEntry{Name: name, Mode: c.mode, ID: c.blob}
		if i, ok := gitformat.Search(entries, name, gitformat.ModeFile); ok {
			entries[i] = e
		} else {
			entries = slices.Insert(entries, i, e)
		}
	}
	if len(entries) == 0 {
		return plumbing.ZeroHash, nil
	}
	b := gitformat.EncodeTree(entries)
	nid := gitformat.HashObject(plumbing.TreeObject, b)
	if nid == id {
		return id, nil
	}
	*out = append(*out, newTree{id: nid, content: b, entries: entries})
	return nid, nil
}
