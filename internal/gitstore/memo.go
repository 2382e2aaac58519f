package gitstore

import (
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// memo caches values derived from immutable objects, keyed by object id.
// When it holds max values it starts over: simple, and the working set of a
// wiki (the trees and commits near HEAD) is rebuilt in a few reads.
type memo[V any] struct {
	mu  sync.Mutex
	m   map[plumbing.Hash]V
	max int
}

func (c *memo[V]) get(id plumbing.Hash) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[id]
	return v, ok
}

func (c *memo[V]) put(id plumbing.Hash, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= c.limit() {
		c.m = make(map[plumbing.Hash]V)
	}
	c.m[id] = v
}

func (c *memo[V]) limit() int {
	if c.max > 0 {
		return c.max
	}
	return 1 << 16
}

type (
	treeCache   = memo[*tree]
	commitCache = memo[*commitInfo]
	sizeCache   = memo[int64]
)
