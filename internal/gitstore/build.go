package gitstore

import (
	"io/fs"
	"slices"
	"sort"
	"strings"

	"github.com/wikid/wikid/internal/wiki"

	"github.com/go-git/go-git/v5/plumbing"
)

// change is one file of a commit request, resolved against the parent tree.
type change struct {
	path    string
	parts   []string
	delete  bool
	content []byte
	mode    uint32        // mode of the new file
	blob    plumbing.Hash // id of the new content; zero for a delete
	old     treeEntry     // the file in the parent, if hadOld
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
	entries []treeEntry
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
			i, ok := search(entries, name, modeFile)
			if !ok {
				return plumbing.ZeroHash, wiki.Errorf(wiki.CodeNotFound, "delete %q: no such file in the parent commit", c.path)
			}
			entries = slices.Delete(entries, i, i+1)
		default:
			writes = append(writes, c)
		}
	}
	for _, name := range folders {
		if _, ok := search(entries, name, modeFile); ok {
			return plumbing.ZeroHash, wiki.Errorf(wiki.CodeInvalidPath,
				"cannot write %q: %q is a file", below[name][0].path, strings.Join(below[name][0].parts[:depth+1], "/"))
		}
		i, ok := search(entries, name, modeTree)
		var sub plumbing.Hash
		if ok {
			sub = entries[i].id
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
			entries[i].id = nid
		default:
			entries = slices.Insert(entries, i, treeEntry{name: name, mode: modeTree, id: nid})
		}
	}
	for _, c := range writes {
		name := c.parts[depth]
		if _, ok := search(entries, name, modeTree); ok {
			return plumbing.ZeroHash, wiki.Errorf(wiki.CodeInvalidPath, "cannot write %q: it is a folder", c.path)
		}
		e := treeEntry{name: name, mode: c.mode, id: c.blob}
		if i, ok := search(entries, name, modeFile); ok {
			entries[i] = e
		} else {
			entries = slices.Insert(entries, i, e)
		}
	}
	if len(entries) == 0 {
		return plumbing.ZeroHash, nil
	}
	b := encodeTree(entries)
	nid := hashObject(plumbing.TreeObject, b)
	if nid == id {
		return id, nil
	}
	*out = append(*out, newTree{id: nid, content: b, entries: entries})
	return nid, nil
}

// search finds the entry called name of the given kind (tree or not) in
// entries, which are in git's order; if there is none it returns where one
// would be inserted.
func search(entries []treeEntry, name string, mode uint32) (int, bool) {
	i := sort.Search(len(entries), func(i int) bool {
		return compareEntries(entries[i].name, entries[i].mode, name, mode) >= 0
	})
	ok := i < len(entries) && entries[i].name == name && isTreeMode(entries[i].mode) == isTreeMode(mode)
	return i, ok
}
