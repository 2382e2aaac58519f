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
		for _, p := range c.Parents {
			if !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	return false, nil
}

// MergeBase returns a best common ancestor of commits a and b: one that is
// an ancestor of both and of no other common ancestor nearer to them; ""
// when their histories share no commit. Of several best ones (a
// criss-cross merge) it returns the first found walking back from b. It
// returns an error wrapping wiki.ErrNotFound for an unknown commit.
func (s *Store) MergeBase(ctx context.Context, a, b string) (string, error) {
	if err := s.check(ctx); err != nil {
		return "", err
	}
	ida, err := commitID(a)
	if err != nil {
		return "", err
	}
	idb, err := commitID(b)
	if err != nil {
		return "", err
	}
	if ida.IsZero() || idb.IsZero() {
		return "", nil
	}
	ofA, err := s.ancestors(ctx, ida, nil)
	if err != nil {
		return "", fmt.Errorf("merge base: %w", err)
	}
	// Walk back from b, stopping at the commits a reaches too.
	var found []plumbing.Hash
	if _, err := s.ancestors(ctx, idb, func(id plumbing.Hash) bool {
		if ofA[id] {
			found = append(found, id)
			return false
		}
		return true
	}); err != nil {
		return "", fmt.Errorf("merge base: %w", err)
	}
	for _, c := range found {
		best := true
		for _, d := range found {
			if d == c {
				continue
			}
			if below, err := s.IsAncestor(ctx, c.String(), d.String()); err != nil {
				return "", err
			} else if below {
				best = false // d is nearer
				break
			}
		}
		if best {
			return c.String(), nil
		}
	}
	return "", nil
}

// ancestors walks the history from id, breadth first, and returns every
// commit it visits; walk, when not nil, says whether to go on past a
// commit (it is visited either way).
func (s *Store) ancestors(ctx context.Context, id plumbing.Hash, walk func(plumbing.Hash) bool) (map[plumbing.Hash]bool, error) {
	seen := map[plumbing.Hash]bool{id: true}
	queue := []plumbing.Hash{id}
	for n := 0; len(queue) > 0; n++ {
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		id := queue[0]
		queue = queue[1:]
		if walk != nil && !walk(id) {
			continue
		}
		c, err := s.commit(id)
		if err != nil {
			return nil, err
		}
		for _, p := range c.Parents {
			if !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	return seen, nil
}
