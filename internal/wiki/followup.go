package wiki

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"
)

// A follow-up is a commit the wiki made, which the follower applies to
// every derived store after the mutation has answered: the answer does not
// wait for the search index, the history index or the link graph, which
// it does not need. A read still sees the change: a read brings its store
// to HEAD first (await), and waits for a follow-up in flight on that store
// rather than doing its work a second time.
type followUp struct {
	update *Update // from the commit's parent to the commit, with its files
	// done holds one channel per lane, closed once the lane is through
	// with the commit (applied, skipped, or given up at Close).
	done []chan struct{}
}

// finish closes the channels of the lanes not through with f yet.
func (f *followUp) finish(from int) {
	for _, ch := range f.done[from:] {
		close(ch)
	}
}

// followQuiet is how long the follower lets a burst of writes go on
// before it applies them: while a mutation runs, or the next one comes
// within followQuiet of the last, it waits, and then applies the burst as
// one update of each store (one segment of the search index, not one per
// write), unless a read needs a store first. A write's answer never waits
// for it, and the next write does not share the machine with it.
const followQuiet = 3 * time.Millisecond

// followBatch is how many commits wait at most: past it they are applied
// even while the burst goes on.
const followBatch = 64

// follower queues the follow-ups, in commit order, for one goroutine.
type follower struct {
	mu      sync.Mutex
	queue   []*followUp
	active  int           // mutations running or waiting for writeMu
	last    time.Time     // when the last one ended
	hurry   bool          // a read waits for the queue: apply it now
	stopped bool          // set by Close: apply what is queued, then exit
	wake    chan struct{} // a value when any of the above changed
	exited  chan struct{} // closed when the goroutine returns
}

func newFollower() *follower {
	return &follower{wake: make(chan struct{}, 1), exited: make(chan struct{})}
}

func (f *follower) signal() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// begin and end bracket a mutation: the follower waits for it.
func (f *follower) begin() {
	f.mu.Lock()
	f.active++
	f.mu.Unlock()
}

func (f *follower) end() {
	f.mu.Lock()
	f.active--
	f.last = time.Now()
	f.mu.Unlock()
	f.signal()
}

// hurryUp makes the follower apply what is queued without waiting for the
// burst to end.
func (f *follower) hurryUp() {
	f.mu.Lock()
	f.hurry = true
	f.mu.Unlock()
	f.signal()
}

// committed hands a commit the wiki made to the follower, which brings
// every store to it: a store at the commit's parent takes the committed
// files as they are (changes with their content and blob ids), without
// reading them back; one elsewhere catches up with HEAD. Each store's
// follow-up is recorded on its lane before committed returns, so that a
// read that comes after the mutation's answer waits for it. The caller
// holds writeMu, which keeps the follow-ups in commit order.
func (w *Wiki) committed(parent, commit string, changes []FileChange) {
	u := &Update{From: parent, To: commit, changes: changes, listed: true, own: make(map[string]*FileChange, len(changes))}
	for i := range changes {
		u.own[changes[i].Path] = &changes[i]
	}
	f := &followUp{update: u, done: make([]chan struct{}, len(w.lanes))}
	for i, l := range w.lanes {
		f.done[i] = make(chan struct{})
		l.stateMu.Lock()
		l.followUp = f.done[i]
		l.stateMu.Unlock()
	}
	w.follower.mu.Lock()
	if w.follower.stopped {
		w.follower.mu.Unlock()
		f.finish(0)
		return
	}
	w.follower.queue = append(w.follower.queue, f)
	w.follower.mu.Unlock()
	w.follower.signal()
	w.pokeWatchers()
}

// followCommits applies the follow-ups as bursts of writes end (see
// followQuiet), until Close stops it and what was queued before is
// applied. ctx is never done; bg, the context of the catch-ups, is done
// when Close begins.
func (w *Wiki) followCommits(ctx, bg context.Context) {
	f := w.follower
	defer close(f.exited)
	for {
		f.mu.Lock()
		if len(f.queue) == 0 {
			stopped := f.stopped
			f.mu.Unlock()
			if stopped {
				return
			}
			<-f.wake
			continue
		}
		if !f.stopped && !f.hurry && len(f.queue) < followBatch {
			if f.active > 0 {
				f.mu.Unlock()
				<-f.wake
				continue
			}
			if wait := followQuiet - time.Since(f.last); wait > 0 {
				f.mu.Unlock()
				t := time.NewTimer(wait)
				select {
				case <-f.wake:
				case <-t.C:
				}
				t.Stop()
				continue
			}
		}
		batch, stopped := f.queue, f.stopped
		f.queue, f.hurry = nil, false
		f.mu.Unlock()
		w.applyFollowUps(ctx, bg, batch, stopped)
	}
}

// applyFollowUps brings every store to the last commit of batch, one store
// at a time, in the lanes' order. The history index takes the commits
// one by one; another store at the parent of the first takes them all as
// one update. A store in a long update is left to it. A store elsewhere
// catches up with HEAD, in bg, unless the wiki is closing: then it is left
// for the next start.
func (w *Wiki) applyFollowUps(ctx, bg context.Context, batch []*followUp, closing bool) {
	first, last := batch[0].update, batch[len(batch)-1].update
	var merged *Update
	for i, l := range w.lanes {
		if l.lockUnlessBuilding() {
			var err error
			if l == w.historyLane {
				for _, f := range batch {
					if err == nil && l.store.Commit() == f.update.From {
						err = w.advance(ctx, l, f.update.To, f.update, nil)
					}
				}
			} else if l.store.Commit() == first.From {
				if merged == nil {
					merged = mergeUpdates(batch)
				}
				err = w.advance(ctx, l, last.To, merged, nil)
			}
			if err == nil && l.store.Commit() != last.To && !closing {
				var head Head
				if head, err = w.store.Head(bg); err == nil {
					err = w.advance(bg, l, head.Commit, nil, nil)
				}
			}
			l.release()
			if err != nil && bg.Err() == nil {
				w.log.Warn("not updated", "store", l.store.Name(), "commit", short(last.To), "err", err)
			}
		}
		for _, f := range batch {
			close(f.done[i])
		}
	}
}

// mergeUpdates returns the update of a store from the parent of the first
// commit of batch to the last, with every file changed on the way as it
// is at the last: its blob id there and, from the first commit that
// touched it, the one it had before. A file made and removed again in the
// batch is no change.
func mergeUpdates(batch []*followUp) *Update {
	first, last := batch[0].update, batch[len(batch)-1].update
	if len(batch) == 1 {
		return first
	}
	byPath := make(map[string]FileChange)
	for _, f := range batch {
		for _, ch := range f.update.changes {
			if prev, ok := byPath[ch.Path]; ok {
				ch.OldBlob = prev.OldBlob
			}
			byPath[ch.Path] = ch
		}
	}
	changes := make([]FileChange, 0, len(byPath))
	for _, ch := range byPath {
		if ch.Delete && ch.OldBlob == "" {
			continue
		}
		changes = append(changes, ch)
	}
	slices.SortFunc(changes, func(a, b FileChange) int { return strings.Compare(a.Path, b.Path) })
	u := &Update{From: first.From, To: last.To, changes: changes, listed: true, own: make(map[string]*FileChange, len(changes))}
	for i := range changes {
		u.own[changes[i].Path] = &changes[i]
	}
	return u
}

// stopFollowing applies the follow-ups queued and stops the follower. The
// caller holds writeMu, so that no mutation queues another.
func (w *Wiki) stopFollowing() {
	w.follower.mu.Lock()
	w.follower.stopped = true
	w.follower.mu.Unlock()
	w.follower.signal()
	<-w.follower.exited
}

// pendingFollowUp returns the channel closed when the follower is through
// with the last commit the wiki made, nil when it already is (or none
// was made).
func (l *lane) pendingFollowUp() <-chan struct{} {
	l.stateMu.Lock()
	ch := l.followUp
	l.stateMu.Unlock()
	if ch == nil {
		return nil
	}
	select {
	case <-ch:
		return nil
	default:
		return ch
	}
}

// followUpPending reports whether the follower has yet to bring the lane
// to the last commit the wiki made.
func (l *lane) followUpPending() bool { return l.pendingFollowUp() != nil }

// awaitFollowUp waits until the lane is through with the last commit the
// wiki handed to the follower, which it hurries, reporting that it waits
// to ctx's progress function every progressEvery; it returns the context's
// error when ctx is done first.
func (w *Wiki) awaitFollowUp(ctx context.Context, l *lane) error {
	ch := l.pendingFollowUp()
	if ch == nil {
		return nil
	}
	w.follower.hurryUp()
	tick := time.NewTicker(progressEvery)
	defer tick.Stop()
	for {
		select {
		case <-ch:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
			st := l.state()
			reportProgress(ctx, Progress{Done: st.Done, Total: st.Total, Message: "waiting for the " + st.Name + " to take the last change"})
		}
	}
}
