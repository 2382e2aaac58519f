package wiki

import (
	"context"
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

// follower queues the follow-ups, in commit order, for one goroutine.
type follower struct {
	mu      sync.Mutex
	queue   []*followUp
	stopped bool          // set by Close: apply what is queued, then exit
	wake    chan struct{} // a value when the queue grew or stopped was set
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
}

// followCommits applies the follow-ups as they come, until Close stops it
// and what was queued before is applied. ctx is never done; bg, the
// context of the catch-ups, is done when Close begins.
func (w *Wiki) followCommits(ctx, bg context.Context) {
	defer close(w.follower.exited)
	for {
		w.follower.mu.Lock()
		if len(w.follower.queue) == 0 {
			stopped := w.follower.stopped
			w.follower.mu.Unlock()
			if stopped {
				return
			}
			<-w.follower.wake
			continue
		}
		f := w.follower.queue[0]
		w.follower.queue = w.follower.queue[1:]
		stopped := w.follower.stopped
		w.follower.mu.Unlock()
		w.applyFollowUp(ctx, bg, f, stopped)
	}
}

// applyFollowUp brings every store to the commit of f, one store at a time,
// in the lanes' order (the history index before the search index, which
// reads its file times). A store in a long update is left to it. A store
// that is not at the commit's parent catches up with HEAD, in bg, unless
// the wiki is closing: then it is left for the next start.
func (w *Wiki) applyFollowUp(ctx, bg context.Context, f *followUp, closing bool) {
	c := f.update
	for i, l := range w.lanes {
		if l.lockUnlessBuilding() {
			var err error
			switch from := l.store.Commit(); {
			case from == c.From:
				err = w.advance(ctx, l, c.To, c, nil)
			case !closing:
				var head Head
				if head, err = w.store.Head(bg); err == nil {
					err = w.advance(bg, l, head.Commit, nil, nil)
				}
			}
			l.release()
			if err != nil && bg.Err() == nil {
				w.log.Warn("not updated", "store", l.store.Name(), "commit", short(c.To), "err", err)
			}
		}
		close(f.done[i])
	}
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

// awaitFollowUp waits until the lane is through with the last commit the
// wiki handed to the follower, reporting that it waits to ctx's progress
// function every progressEvery; it returns the context's error when ctx
// is done first.
func (l *lane) awaitFollowUp(ctx context.Context) error {
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
	}
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
