package gitstore

import (
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/refdir"
	"github.com/wikid/wikid/internal/wiki"
)

// maxSymrefDepth bounds chains of symbolic refs.
const maxSymrefDepth = 5

// readHead reads HEAD: the branch it points at and that branch's commit.
func (s *Store) readHead() (wiki.Head, error) {
	branch, id, detached, err := refdir.Head(s.gitDir, s.commonDir, &s.packed, maxSymrefDepth)
	h := wiki.Head{Bare: s.workTree == "", Branch: branch, Detached: detached}
	if !id.IsZero() {
		h.Commit = id.String()
	}
	return h, err
}

// readRef follows symbolic refs from name and returns the ref it ends at,
// the id that ref points at, and whether it exists (see refdir.Resolve).
func (s *Store) readRef(name string) (string, plumbing.Hash, bool, error) {
	return refdir.Resolve(s.gitDir, s.commonDir, &s.packed, name, maxSymrefDepth)
}
