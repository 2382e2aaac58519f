package gitstore

import (
	"context"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
)

// IsAncestor reports whether commit a is an ancestor of (or equal to)
// commit b, walking b's history. It returns an error wrapping
// wiki.ErrNotFound for an unknown commit.
func (s *Store) IsAncestor(ctx context.Context, a, b string) (bool, error) {
	if err := s.check(ctx); err != nil {
		return false, err
	}
	ida, err := commitID(a)
	if err != nil {
		return false, err
	}
	idb, err := commitID(b)
	if err != nil {
		return false, err
	}
	if ida.IsZero() || idb.IsZero() {
		return ida.IsZero(), nil // the empty history precedes everything
	}
	if _, err := s.commit(ida); err != nil {
		return false, fmt.Errorf("is ancestor: %w", err)
	}
	seen := map[plumbing.Hash]bool{idb: true}
	queue := []plumbing.Hash{idb}
	for n := 0; len(queue) > 0; n++ {
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return false, err
			}
		}
		id := queue[0]
		queue = queue[1:]
		if id == ida {
			return true, nil
		}
		c, err := s.commit(id)
		if err != nil {
			return false, fmt.Errorf("is ancestor: %w", err)
		}
		for _, p := range c.parents {
			if !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	return false, nil
}
