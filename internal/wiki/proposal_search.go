package wiki

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/wikid/wikid/internal/note"
)

// maxProposalScratches bounds the scratch indexes kept for proposing
// sessions' searches: one per proposal, the least recently used dropped.
const maxProposalScratches = 8

// proposalScratches keeps, per proposal, a scratch index of its open
// notes as they are at its tip, so that a proposing session's searches
// index its notes once per tip instead of on every search. An entry is
// dropped when the proposal's tip moves; its index is closed once no
// search holds it.
type proposalScratches struct {
	mu      sync.Mutex
	entries map[string]*proposalScratch // by proposal id
	clock   uint64
}

// proposalScratch is the scratch index of one proposal at one tip.
type proposalScratch struct {
	tip   string
	ready chan struct{} // closed once index and err are set
	index ScratchIndex
	err   error
	used  uint64 // the clock when last used, for eviction
	refs  int    // searches holding it
	gone  bool   // dropped from the map: close when refs reach 0
}

// acquire returns the entry of proposal id at tip, made by build on first
// use, and a release to call when the search is done with it.
func (c *proposalScratches) acquire(id, tip string, build func() (ScratchIndex, error)) (*proposalScratch, func()) {
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[string]*proposalScratch{}
	}
	c.clock++
	e := c.entries[id]
	if e != nil && e.tip != tip {
		c.drop(id, e)
		e = nil
	}
	made := e == nil
	if made {
		e = &proposalScratch{tip: tip, ready: make(chan struct{})}
		c.entries[id] = e
		c.evict()
	}
	e.used, e.refs = c.clock, e.refs+1
	c.mu.Unlock()
	if made {
		index, err := build()
		c.mu.Lock()
		e.index, e.err = index, err
		if err != nil && c.entries[id] == e {
			c.drop(id, e) // not kept: the next search tries again
		}
		c.mu.Unlock()
		close(e.ready)
	}
	<-e.ready
	return e, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		e.refs--
		e.closeIfDone()
	}
}

// drop removes entry e of proposal id from the map. The caller holds mu.
func (c *proposalScratches) drop(id string, e *proposalScratch) {
	delete(c.entries, id)
	e.gone = true
	e.closeIfDone()
}

// evict drops the least recently used entries beyond the bound. The
// caller holds mu.
func (c *proposalScratches) evict() {
	for len(c.entries) > maxProposalScratches {
		oldest, at := "", uint64(0)
		for id, e := range c.entries {
			if oldest == "" || e.used < at {
				oldest, at = id, e.used
			}
		}
		c.drop(oldest, c.entries[oldest])
	}
}

// closeAll drops every entry, for the wiki's Close.
func (c *proposalScratches) closeAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, e := range c.entries {
		c.drop(id, e)
	}
}

// closeIfDone closes a dropped entry's index once no search holds it and
// it is built. The caller holds the cache's mu.
func (e *proposalScratch) closeIfDone() {
	if !e.gone || e.refs > 0 || e.index == nil {
		return
	}
	_ = e.index.Close()
	e.index = nil
}

// proposalSearch searches the open notes of proposal st as they are in
// view, from the scratch index kept for its tip.
func (w *Wiki) proposalSearch(ctx context.Context, st *proposalState, req SearchRequest, notes map[string]string, view Snapshot) (*SearchResult, error) {
	e, release := w.proposalScratches.acquire(st.id, st.tip, func() (ScratchIndex, error) {
		var docs []Document
		for p, file := range notes {
			f, content, err := view.Read(ctx, file)
			if errors.Is(err, ErrNotFound) {
				continue // the proposal deletes it
			}
			if err != nil {
				return nil, err
			}
			docs = append(docs, document(note.ParseIn(p, content, w.opts.Location), f))
		}
		scratch, err := w.index.Scratch()
		if err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		if err := scratch.Add(context.WithoutCancel(ctx), docs); err != nil {
			_ = scratch.Close()
			return nil, fmt.Errorf("search: scan: %w", err)
		}
		return scratch, nil
	})
	defer release()
	if e.err != nil {
		return nil, e.err
	}
	return e.index.Search(ctx, req)
}
