package gitstore

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
)

// tree is a decoded tree object; its entries are in git's order. A tree is
// shared through the cache and never modified.
type tree struct {
	entries []gitformat.TreeEntry
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
		n += len(e.Name) + 48
	}
	return n
}

// tree returns the decoded tree id, from the cache or the object store. The
// zero id and the empty tree's id are the empty tree.
func (s *Store) tree(id plumbing.Hash) (*tree, error) {
	if id.IsZero() || id == gitformat.EmptyTree {
		return &tree{}, nil
	}
	if t, ok := s.trees.Get(id); ok {
		return t, nil
	}
	typ, b, err := s.readObject(id)
	if err != nil {
		return nil, err
	}
	if typ != plumbing.TreeObject {
		return nil, fmt.Errorf("object %s is a %s, not a tree", id, typ)
	}
	entries, err := gitformat.ParseTree(b)
	if err != nil {
		return nil, fmt.Errorf("tree %s: %w", id, err)
	}
	t := &tree{entries: entries}
	s.trees.Put(id, t)
	return t, nil
}

// lookup returns the entry at path (already split) under the root tree, and
// whether it exists. A path crossing a file does not exist.
func (s *Store) lookup(root plumbing.Hash, parts []string) (gitformat.TreeEntry, bool, error) {
	e := gitformat.TreeEntry{Mode: gitformat.ModeTree, ID: root}
	for _, name := range parts {
		if !gitformat.IsTreeMode(e.Mode) {
			return gitformat.TreeEntry{}, false, nil
		}
		t, err := s.tree(e.ID)
		if err != nil {
			return gitformat.TreeEntry{}, false, err
		}
		var ok bool
		if e, ok = gitformat.Find(t.entries, name); !ok {
			return gitformat.TreeEntry{}, false, nil
		}
	}
	return e, true, nil
}

// ReleaseCaches empties the caches of decoded trees and objects, which a
// walk of the whole history (the history index's first build) fills with
// trees later reads seldom need; they fill again as reads need them.
func (s *Store) ReleaseCaches() {
	s.trees.Clear()
	s.reader.ReleaseCache()
	s.git.Lock()
	defer s.git.Unlock()
	s.objects.Clear()
}
