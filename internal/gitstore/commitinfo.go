package gitstore

import (
	"bytes"
	"fmt"

	"github.com/wikid/wikid/internal/wiki"

	"github.com/go-git/go-git/v5/plumbing"
)

// commitInfo is what the store reads from a commit object.
type commitInfo struct {
	tree    plumbing.Hash
	parents []plumbing.Hash
}

// parseCommit reads the tree and parents from a commit object's headers.
func parseCommit(b []byte) (*commitInfo, error) {
	c := &commitInfo{}
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if len(line) == 0 {
			break // end of headers
		}
		key, val, _ := bytes.Cut(line, []byte{' '})
		switch string(key) {
		case "tree":
			id, ok := parseHex(string(val))
			if !ok {
				return nil, fmt.Errorf("parse commit: bad tree %q", val)
			}
			c.tree = id
		case "parent":
			id, ok := parseHex(string(val))
			if !ok {
				return nil, fmt.Errorf("parse commit: bad parent %q", val)
			}
			c.parents = append(c.parents, id)
		}
	}
	if c.tree.IsZero() {
		return nil, fmt.Errorf("parse commit: no tree")
	}
	return c, nil
}

// commit returns the decoded commit id. A missing object, or one that is not
// a commit, is an error wrapping wiki.ErrNotFound.
func (s *Store) commit(id plumbing.Hash) (*commitInfo, error) {
	if c, ok := s.commits.get(id); ok {
		return c, nil
	}
	typ, b, err := s.readObject(id)
	if err != nil {
		return nil, err
	}
	if typ != plumbing.CommitObject {
		return nil, wiki.Errorf(wiki.CodeNotFound, "%s is a %s, not a commit", id, typ)
	}
	c, err := parseCommit(b)
	if err != nil {
		return nil, fmt.Errorf("commit %s: %w", id, err)
	}
	s.commits.put(id, c)
	return c, nil
}

// peel follows annotated tags from id to the object they name, and returns
// that object's id and type.
func (s *Store) peel(id plumbing.Hash) (plumbing.Hash, plumbing.ObjectType, error) {
	for range 16 {
		if _, ok := s.commits.get(id); ok {
			return id, plumbing.CommitObject, nil
		}
		typ, b, err := s.readObject(id)
		if err != nil {
			return id, 0, err
		}
		if typ != plumbing.TagObject {
			return id, typ, nil
		}
		obj, _, _ := bytes.Cut(b, []byte{'\n'})
		target, ok := bytes.CutPrefix(obj, []byte("object "))
		if !ok {
			return id, 0, fmt.Errorf("tag %s: no object header", id)
		}
		next, ok := parseHex(string(target))
		if !ok {
			return id, 0, fmt.Errorf("tag %s: bad object %q", id, target)
		}
		id = next
	}
	return id, 0, fmt.Errorf("tag %s: too many levels of tags", id)
}

// parseHex parses a full lowercase or uppercase hex object id.
func parseHex(s string) (plumbing.Hash, bool) {
	var id plumbing.Hash
	if len(s) != 40 {
		return id, false
	}
	for i := 0; i < 40; i += 2 {
		hi, ok1 := unhex(s[i])
		lo, ok2 := unhex(s[i+1])
		if !ok1 || !ok2 {
			return id, false
		}
		id[i/2] = hi<<4 | lo
	}
	return id, true
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// commitID parses a commit id argument; "" is no commit. Anything else that
// is not a full hex id is an error wrapping wiki.ErrNotFound.
func commitID(s string) (plumbing.Hash, error) {
	if s == "" {
		return plumbing.ZeroHash, nil
	}
	id, ok := parseHex(s)
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
	return c.tree, nil
}
