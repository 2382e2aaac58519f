// Package memo caches values derived from immutable git objects, keyed by
// object id.
package memo

import (
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// Cache holds values by object id. When it holds Max values (1<<16 when
// Max is 0), or values costing more than Budget (when Cost is set), it
// starts over: simple, and the working set of a wiki (the trees and
// commits near HEAD) is rebuilt in a few reads, while a walk of all history
// cannot grow it without bound. The zero Cache is ready to use; set its
// fields before its first use. It is safe for concurrent use.
type Cache[V any] struct {
	Max int
	// Cost estimates the bytes a value holds; Budget bounds their sum.
	Cost   func(V) int
	Budget int

	mu    sync.Mutex
	m     map[plumbing.Hash]V
	spent int
}

// Get returns the value of id, if held.
func (c *Cache[V]) Get(id plumbing.Hash) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[id]
	return v, ok
}

// Put holds v as the value of id.
func (c *Cache[V]) Put(id plumbing.Hash, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	if c.Cost != nil {
		n = c.Cost(v)
	}
	if c.m == nil || len(c.m) >= c.limit() || c.Cost != nil && c.spent+n > c.Budget {
		c.m = make(map[plumbing.Hash]V)
		c.spent = 0
	}
	c.m[id] = v
	c.spent += n
}

// Clear empties the cache.
func (c *Cache[V]) Clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m, c.spent = nil, 0
}

func (c *Cache[V]) limit() int {
	if c.Max > 0 {
		return c.Max
	}
	return 1 << 16
}

// Len returns how many values the cache holds.
func (c *Cache[V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
