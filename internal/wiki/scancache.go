package wiki

import "sync"

// scanCache keeps the text of the notes that scans read at one commit
// while the search index is built, so that a scan goes on from where the
// last one stopped rather than reading the same notes again from git: on a
// busy machine a second of reading covered a tenth of 10,000 notes, and a
// note beyond it was not found by any search until the index was built.
// It is bounded by the bytes it holds (scanCacheBudget); the notes past
// the budget are read again by every scan. The wiki drops it when the
// index is built.
type scanCache struct {
	mu     sync.Mutex
	commit string
	texts  map[string]scanText // by file path
	spent  int
	budget int
}

// scanText is a note file as a scan read it.
type scanText struct {
	file    File
	content []byte
}

// scanCacheBudget bounds the bytes of note text a scanCache holds: all of
// a 10,000-note vault of 4 KB notes, a third of 100,000 notes of 1.2 KB.
const scanCacheBudget = 40 << 20

// get returns the file at path as read at commit, if kept.
func (c *scanCache) get(commit, path string) (scanText, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.commit != commit {
		return scanText{}, false
	}
	t, ok := c.texts[path]
	return t, ok
}

// put keeps a file read at commit, forgetting those of another commit,
// unless it would pass the budget.
func (c *scanCache) put(commit string, t scanText) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.commit != commit || c.texts == nil {
		c.commit, c.texts, c.spent = commit, map[string]scanText{}, 0
	}
	budget := c.budget
	if budget == 0 {
		budget = scanCacheBudget
	}
	if _, ok := c.texts[t.file.Path]; ok || c.spent+len(t.content) > budget {
		return
	}
	c.texts[t.file.Path] = t
	c.spent += len(t.content)
}

// drop forgets every note.
func (c *scanCache) drop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.commit, c.texts, c.spent = "", nil, 0
}

// len returns how many notes it keeps.
func (c *scanCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.texts)
}
