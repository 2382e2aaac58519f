package gitstore

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"
)

// Git file modes, as stored in trees and in the index.
const (
	modeTree     uint32 = 0o040000
	modeFile     uint32 = 0o100644
	modeExec     uint32 = 0o100755
	modeTypeMask        = 0o170000
)

// emptyTree is the id of the tree with no entries, which git treats as
// existing whether or not it is stored.
var emptyTree = plumbing.NewHash("4b825dc642cb6eb9a060e54bf8d69288fbee4904")

func isTreeMode(m uint32) bool    { return m&modeTypeMask == modeTree }
func isRegularMode(m uint32) bool { return m&modeTypeMask == 0o100000 }

// treeEntry is one entry of a tree object.
type treeEntry struct {
	name string
	mode uint32
	id   plumbing.Hash
}

// tree is a decoded tree object; its entries are in git's order. A tree is
// shared through the cache and never modified.
type tree struct {
	entries []treeEntry
}

// treeCacheBudget bounds the bytes of decoded trees the store keeps: the
// trees of HEAD and its neighbours fit many times over, while a walk of all
// history (the history index's first build diffs every commit) starts the
// cache over instead of keeping every tree it read.
const treeCacheBudget = 32 << 20

// cost estimates the memory a decoded tree holds: each entry's name, its
// string header, mode and id.
func (t *tree) cost() int {
	n := 64
	for _, e := range t.entries {
		n += len(e.name) + 48
	}
	return n
}

// parseTree decodes a tree object.
func parseTree(b []byte) (*tree, error) {
	t := &tree{}
	for len(b) > 0 {
		sp := bytes.IndexByte(b, ' ')
		if sp <= 0 {
			return nil, fmt.Errorf("parse tree: bad mode")
		}
		mode, err := strconv.ParseUint(string(b[:sp]), 8, 32)
		if err != nil {
			return nil, fmt.Errorf("parse tree: bad mode %q", b[:sp])
		}
		b = b[sp+1:]
		nul := bytes.IndexByte(b, 0)
		if nul <= 0 || len(b) < nul+1+20 {
			return nil, fmt.Errorf("parse tree: truncated entry")
		}
		e := treeEntry{name: string(b[:nul]), mode: uint32(mode)}
		copy(e.id[:], b[nul+1:nul+21])
		t.entries = append(t.entries, e)
		b = b[nul+21:]
	}
	return t, nil
}

// encodeTree encodes entries, which must be in git's order, as a tree object.
func encodeTree(entries []treeEntry) []byte {
	n := 0
	for _, e := range entries {
		n += len(e.name) + 28
	}
	b := make([]byte, 0, n)
	for _, e := range entries {
		b = strconv.AppendUint(b, uint64(e.mode), 8)
		b = append(b, ' ')
		b = append(b, e.name...)
		b = append(b, 0)
		b = append(b, e.id[:]...)
	}
	return b
}

// compareEntries orders tree entries the way git does: by name, a tree
// sorting as if its name ended in '/'.
func compareEntries(aName string, aMode uint32, bName string, bMode uint32) int {
	n := min(len(aName), len(bName))
	if c := compareStrings(aName[:n], bName[:n]); c != 0 {
		return c
	}
	next := func(name string, mode uint32) byte {
		if len(name) > n {
			return name[n]
		}
		if isTreeMode(mode) {
			return '/'
		}
		return 0
	}
	ca, cb := next(aName, aMode), next(bName, bMode)
	switch {
	case ca < cb:
		return -1
	case ca > cb:
		return 1
	}
	return 0
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// find returns the entry called name: a file or a tree, whichever exists.
func (t *tree) find(name string) (treeEntry, bool) {
	for _, mode := range [...]uint32{modeFile, modeTree} {
		i := sort.Search(len(t.entries), func(i int) bool {
			e := t.entries[i]
			return compareEntries(e.name, e.mode, name, mode) >= 0
		})
		if i < len(t.entries) && t.entries[i].name == name {
			return t.entries[i], true
		}
	}
	return treeEntry{}, false
}

// tree returns the decoded tree id, from the cache or the object store. The
// zero id and the empty tree's id are the empty tree.
func (s *Store) tree(id plumbing.Hash) (*tree, error) {
	if id.IsZero() || id == emptyTree {
		return &tree{}, nil
	}
	if t, ok := s.trees.get(id); ok {
		return t, nil
	}
	typ, b, err := s.readObject(id)
	if err != nil {
		return nil, err
	}
	if typ != plumbing.TreeObject {
		return nil, fmt.Errorf("object %s is a %s, not a tree", id, typ)
	}
	t, err := parseTree(b)
	if err != nil {
		return nil, fmt.Errorf("tree %s: %w", id, err)
	}
	s.trees.put(id, t)
	return t, nil
}

// lookup returns the entry at path (already split) under the root tree, and
// whether it exists. A path crossing a file does not exist.
func (s *Store) lookup(root plumbing.Hash, parts []string) (treeEntry, bool, error) {
	e := treeEntry{mode: modeTree, id: root}
	for _, name := range parts {
		if !isTreeMode(e.mode) {
			return treeEntry{}, false, nil
		}
		t, err := s.tree(e.id)
		if err != nil {
			return treeEntry{}, false, err
		}
		var ok bool
		if e, ok = t.find(name); !ok {
			return treeEntry{}, false, nil
		}
	}
	return e, true, nil
}
