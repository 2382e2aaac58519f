package gitstore

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/wiki"
)

// commit returns the decoded commit id. A missing object, or one that is not
// a commit, is an error wrapping wiki.ErrNotFound.
func (s *Store) commit(id plumbing.Hash) (*gitformat.Commit, error) {
	if c, ok := s.commits.Get(id); ok {
		return c, nil
	}
	typ, b, err := s.readObject(id)
	if err != nil {
		return nil, err
	}
	if typ != plumbing.CommitObject {
		return nil, wiki.Errorf(wiki.CodeNotFound, "%s is a %s, not a commit", id, typ)
	}
	c, err := gitformat.ParseCommit(b)
	if err != nil {
		return nil, fmt.Errorf("commit %s: %w", id, err)
	}
	s.commits.Put(id, c)
	return c, nil
}

// peel follows annotated tags from id to the object they name, and returns
// that object's id and type.
func (s *Store) peel(id plumbing.Hash) (plumbing.Hash, plumbing.ObjectType, error) {
	for range 16 {
		if _, ok := s.commits.Get(id); ok {
			return id, plumbing.CommitObject, nil
		}
		typ, b, err := s.readObject(id)
		if err != nil {
			return id, 0, err
		}
		if typ != plumbing.TagObject {
			return id, typ, nil
		}
		next, err := gitformat.TagTarget(b)
		if err != nil {
			return id, 0, fmt.Errorf("tag %s: %w", id, err)
		}
		id = next
	}
	return id, 0, fmt.Errorf("tag %s: too many levels of tags", id)
}

// commitID parses a commit id argument; "" is no commit. Anything else that
// is not a full hex id is an error wrapping wiki.ErrNotFound.
func commitID(s string) (plumbing.Hash, error) {
	if s == "" {
		return plumbing.ZeroHash, nil
	}
	id, ok := gitformat.ParseHex(s)
	if !ok || id.IsZero() {
		return id, wiki.Errorf(wiki.CodeNotFound, "%q is not a full commit id", s)
	}
	return id, nil
}

// rootTree returns the tree of a commit id; "" is the empty tree.
func (s *Store) rootTree(commit string) (plumbing.Hash, error) {
	id, err := commitID(commit)
	if err != nil || id.IsZero() {
		return plumbing.ZeroHash, err
	}
	c, err := s.commit(id)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return c.Tree, nil
}
