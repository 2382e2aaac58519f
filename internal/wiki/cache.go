package wiki

import (
	"container/list"
	"sync"

	"github.com/wikid/wikid/internal/note"
)

// noteCache is a small LRU of parsed notes keyed by blob id and note path
// (the same blob parses differently under another file name only in its
// fallback title), bounded by their number and by the bytes of their
// content, which a parsed note holds.
type noteCache struct {
	mu     sync.Mutex
	max    int
	budget int // bytes of content
	spent  int
	order  *list.List
	items  map[noteKey]*list.Element
}

// noteCacheBudget bounds the bytes of the notes a noteCache holds: a first
// build parses every note once for every store, and what it left in the
// cache stayed in memory.
const noteCacheBudget = 16 << 20

type noteKey struct{ blob, path string }

type noteEntry struct {
	key  noteKey
	note *note.Note
}

func newNoteCache(max, budget int) *noteCache {
	return &noteCache{max: max, budget: budget, order: list.New(), items: make(map[noteKey]*list.Element)}
}

func (c *noteCache) get(blob, path string) *note.Note {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[noteKey{blob, path}]
	if !ok {
		return nil
	}
	c.order.MoveToFront(e)
	return e.Value.(*noteEntry).note
}

func (c *noteCache) put(blob string, n *note.Note) {
	if blob == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	k := noteKey{blob, n.Path}
	if e, ok := c.items[k]; ok {
		c.order.MoveToFront(e)
		return
	}
	c.items[k] = c.order.PushFront(&noteEntry{key: k, note: n})
	c.spent += len(n.Raw)
	for c.order.Len() > c.max || c.spent > c.budget && c.order.Len() > 1 {
		last := c.order.Back()
		c.order.Remove(last)
		e := last.Value.(*noteEntry)
		delete(c.items, e.key)
		c.spent -= len(e.note.Raw)
	}
}
