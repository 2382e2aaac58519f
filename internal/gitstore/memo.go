package gitstore

import (
	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/gitformat"
)

// memo caches values derived from immutable objects, keyed by object id.
// When it holds max values, or values costing more than budget (when cost
// is set), it starts over: simple, and the working set of a wiki (the
// trees and commits near HEAD) is rebuilt in a few reads, while a walk of
// all history cannot grow it without bound.
type memo[V any] struct {
	mu  sync.Mutex
	m   map[plumbing.Hash]V
	max int
	// cost estimates the bytes a value holds; budget bounds their sum.
	cost   func(V) int
	budget int
	spent  int
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
	n := 0
	if c.cost != nil {
		n = c.cost(v)
	}
	if c.m == nil || len(c.m) >= c.limit() || c.cost != nil && c.spent+n > c.budget {
		c.m = make(map[plumbing.Hash]V)
		c.spent = 0
	}
	c.m[id] = v
	c.spent += n
}

// clear empties the cache.
func (c *memo[V]) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m, c.spent = nil, 0
}

func (c *memo[V]) limit() int {
	if c.max > 0 {
		return c.max
	}
	return 1 << 16
}

// writtenBlobBudget bounds the bytes of the contents the store keeps of
// the blobs it wrote.
const writtenBlobBudget = 4 << 20

type (
	blobCache   = memo[[]byte]
	treeCache   = memo[*tree]
	commitCache = memo[*gitformat.Commit]
	sizeCache   = memo[int64]
	reviewCache = memo[reviewNote]
)
