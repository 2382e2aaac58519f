package wiki

import (
	"container/list"
	"sync"

	"github.com/wikid/wikid/internal/note"
)

// noteCache is a small LRU of parsed notes keyed by blob id and note path
// (the same blob parses differently under another file name only in its
// fallback title).
type noteCache struct {
	mu    sync.Mutex
	max   int
	order *list.List
	items map[noteKey]*list.Element
}

type noteKey struct{ blob, path string }

type noteEntry struct {
	key  noteKey
	note *note.Note
}

func newNoteCache(max int) *noteCache {
	return &noteCache{max: max, order: list.New(), items: make(map[noteKey]*list.Element)}
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
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*noteEntry).key)
	}
}
