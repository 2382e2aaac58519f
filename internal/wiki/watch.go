package wiki

import (
	"context"
	"sync"
	"time"

	"github.com/wikid/wikid/internal/note"
)

// WatchEvery is how often a watched wiki reads HEAD for the commits made
// without it: by git in the checkout, another program, a sync. It notices
// its own commits at once.
const WatchEvery = 200 * time.Millisecond

// HeadMove is a move of the branch from one commit to another: one commit
// or many (a pull, a burst of writes), or a rewrite.
type HeadMove struct {
	// From and To are the commits before and after; "" for an unborn
	// branch.
	From, To string
	// Notes are the notes that differ between From and To, by path.
	Notes []NoteMove
}

// NoteMove is a note that differs between the two commits of a HeadMove.
type NoteMove struct {
	Path string
	// Change is added, modified or deleted; a renamed note is deleted at
	// its old path and added at its new one.
	Change ChangeKind
}

// Added reports whether the move made or removed notes, which changes the
// set of notes and not only what some of them say.
func (m HeadMove) Added() bool {
	for _, n := range m.Notes {
		if n.Change != ChangeModified {
			return true
		}
	}
	return false
}

// watchers are the functions that watch a wiki's branch, and the one
// goroutine that calls them while there are any.
type watchers struct {
	mu   sync.Mutex
	fns  map[int]func(HeadMove)
	next int
	// poke wakes the goroutine when the wiki made a commit.
	poke chan struct{}
	// stop ends the goroutine and done is closed when it returned; both
	// nil while no one watches.
	stop context.CancelFunc
	done chan struct{}
	// closed is set by Close: no goroutine starts after it.
	closed bool
}

// Watch calls fn with every move of the branch from now on, in order and
// one call at a time: the wiki's own commits at once, others' (git in the
// checkout, another program, a sync) within WatchEvery. It returns the
// function that stops the watch; fn is not called once it returned. fn
// must not block long: the next move waits for it.
func (w *Wiki) Watch(fn func(HeadMove)) (stop func()) {
	ws := &w.watchers
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.closed {
		return func() {}
	}
	if ws.fns == nil {
		ws.fns = map[int]func(HeadMove){}
		ws.poke = make(chan struct{}, 1)
	}
	id := ws.next
	ws.next++
	ws.fns[id] = fn
	if ws.stop == nil {
		ctx, cancel := context.WithCancel(context.Background())
		ws.stop, ws.done = cancel, make(chan struct{})
		go w.watch(ctx, ws.done)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			ws.mu.Lock()
			delete(ws.fns, id)
			var stop context.CancelFunc
			var done chan struct{}
			if len(ws.fns) == 0 && ws.stop != nil {
				stop, done = ws.stop, ws.done
				ws.stop, ws.done = nil, nil
			}
			ws.mu.Unlock()
			if stop != nil {
				stop()
				<-done
			}
		})
	}
}

// pokeWatchers tells the watch that the wiki made a commit.
func (w *Wiki) pokeWatchers() {
	ws := &w.watchers
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.poke == nil {
		return
	}
	select {
	case ws.poke <- struct{}{}:
	default:
	}
}

// closeWatchers stops the watch for good, at Close.
func (w *Wiki) closeWatchers() {
	ws := &w.watchers
	ws.mu.Lock()
	ws.closed = true
	stop, done := ws.stop, ws.done
	ws.stop, ws.done, ws.fns = nil, nil, nil
	ws.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
}

// watch reads HEAD every WatchEvery, and when poked, and hands each move
// to the watchers, until ctx is done.
func (w *Wiki) watch(ctx context.Context, done chan struct{}) {
	defer close(done)
	last := ""
	if h, err := w.store.Head(ctx); err == nil {
		last = h.Commit
	}
	tick := time.NewTicker(WatchEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-w.watchers.poke:
		}
		h, err := w.store.Head(ctx)
		if err != nil || h.Commit == last {
			if err != nil && ctx.Err() == nil {
				w.log.Debug("watch: read HEAD", "err", err)
			}
			continue
		}
		changes, err := w.store.Changes(ctx, last, h.Commit)
		if err != nil {
			if ctx.Err() == nil {
				w.log.Warn("watch: changes", "from", short(last), "to", short(h.Commit), "err", err)
			}
			continue
		}
		move := HeadMove{From: last, To: h.Commit, Notes: noteMoves(changes)}
		last = h.Commit
		w.watchers.mu.Lock()
		fns := make([]func(HeadMove), 0, len(w.watchers.fns))
		for _, fn := range w.watchers.fns {
			fns = append(fns, fn)
		}
		w.watchers.mu.Unlock()
		for _, fn := range fns {
			if ctx.Err() != nil {
				return
			}
			fn(move)
		}
	}
}

// noteMoves are the notes among changes, as Store.Changes lists them.
func noteMoves(changes []FileChange) []NoteMove {
	var out []NoteMove
	for _, ch := range changes {
		p, _, ok := note.SplitFileName(ch.Path)
		if !ok {
			continue
		}
		kind := ChangeModified
		switch {
		case ch.Delete:
			kind = ChangeDeleted
		case ch.OldBlob == "":
			kind = ChangeAdded
		}
		out = append(out, NoteMove{Path: p, Change: kind})
	}
	return out
}
