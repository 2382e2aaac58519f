package semantic

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"
	"time"
)

// signal wakes the background embedding.
func (x *Index) signal() {
	select {
	case x.wake <- struct{}{}:
	default:
	}
}

// Background embedding shares the machine with the searches. It runs
// opts.Workers embedders at once, and yields to a search by meaning: while
// one runs, no worker takes a new batch (for at most maxYield), and for
// quietAfter after one ended a worker fewer runs, and an embedder that
// spreads a batch over the cores itself is told to leave one free
// (Options.Share), so that the next search of a client that asks several
// in a row finds a core free.
const (
	maxYield   = 2 * time.Second
	quietAfter = 5 * time.Second
)

// share tells opts.Share how many cores the background embedding may use:
// all but one while searches by meaning come, else all (0). It calls
// Share only when that changes.
func (x *Index) share(quiet bool) {
	if x.opts.Share == nil {
		return
	}
	n := 0
	if !quiet {
		n = max(1, runtime.GOMAXPROCS(0)-1)
	}
	x.shareMu.Lock()
	defer x.shareMu.Unlock()
	if x.shared != n {
		x.shared = n
		x.opts.Share(n)
	}
}

// quiet reports whether no search by meaning ran within quietAfter.
func (s *searches) quiet() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n == 0 && time.Since(s.ended) > quietAfter
}

// beginSearch counts a search by meaning; the function it returns ends
// it. While chunks wait, the embedding leaves a core to it.
func (x *Index) beginSearch() func() {
	end := x.busy.begin()
	x.mu.RLock()
	waiting := len(x.texts) > 0
	x.mu.RUnlock()
	if waiting {
		x.share(false)
	}
	return end
}

// searches counts the searches by meaning running, and when the last one
// ended.
type searches struct {
	mu    sync.Mutex
	n     int
	ended time.Time
	idle  chan struct{} // closed when n falls to 0
	// limit bounds a yield to searches, maxYield when 0.
	limit time.Duration
}

// begin counts a search; the function it returns ends it.
func (s *searches) begin() func() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n == 0 {
		s.idle = make(chan struct{})
	}
	s.n++
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.n--; s.n == 0 {
			s.ended = time.Now()
			close(s.idle)
		}
	}
}

// yield returns once worker may take a batch: no search runs, or searches
// have run for maxYield since the worker began to wait (one deadline for
// the whole wait, so that searches back to back, each ending as the next
// begins, hold the embedding back no longer than one long search), and
// the worker is not the last of workers within quietAfter of a search. It
// returns ctx's error when ctx ends.
func (s *searches) yield(ctx context.Context, worker, workers int) error {
	limit := s.limit
	if limit <= 0 {
		limit = maxYield
	}
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		n, idle, ended := s.n, s.idle, s.ended
		s.mu.Unlock()
		if n > 0 {
			select {
			case <-idle:
			case <-deadline.C:
				return nil // searches in a row must not stop the embedding
			case <-ctx.Done():
				return ctx.Err()
			}
			continue
		}
		wait := time.Until(ended.Add(quietAfter))
		if worker == 0 || worker < workers-1 || wait <= 0 {
			return nil
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
}

// embedLoop runs the background embedding until ctx ends: opts.Workers
// workers, each embedding the queued texts a batch at a time.
func (x *Index) embedLoop(ctx context.Context) {
	defer close(x.done)
	var wg sync.WaitGroup
	for w := range x.opts.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x.embedWorker(ctx, w)
		}()
	}
	wg.Wait()
}

// embedWorker embeds the queued texts, a batch at a time, until ctx ends.
// After a failure it waits opts.Retry, or for a new commit.
func (x *Index) embedWorker(ctx context.Context, worker int) {
	for ctx.Err() == nil {
		if err := x.busy.yield(ctx, worker, x.opts.Workers); err != nil {
			return
		}
		hs, texts := x.nextBatch()
		x.share(len(hs) == 0 || x.busy.quiet())
		if len(hs) == 0 {
			select {
			case <-ctx.Done():
			case <-x.wake:
				x.signal() // wake the next worker too: there may be more
			}
			continue
		}
		start := time.Now()
		vecs, err := x.emb.Embed(ctx, texts)
		if err == nil {
			x.rate.add(start, time.Now(), len(hs))
			err = x.store(hs, vecs)
			x.moves.moved()
		}
		if err != nil {
			if ctx.Err() != nil {
				x.requeue(hs)
				return
			}
			x.fail(hs, err)
			select {
			case <-ctx.Done():
			case <-time.After(x.opts.Retry):
			}
		}
	}
}

// nextBatch takes the next texts from the queue, and marks them taken.
func (x *Index) nextBatch() ([]hash, []string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	n := max(1, x.emb.BatchSize())
	var hs []hash
	var texts []string
	for len(x.queue) > 0 && len(hs) < n {
		h := x.queue[0]
		x.queue = x.queue[1:]
		if t, ok := x.texts[h]; ok && !x.taken[h] {
			x.taken[h] = true
			hs = append(hs, h)
			texts = append(texts, t)
		}
	}
	return hs, texts
}

// store keeps a batch's vectors and gives them to the chunks waiting.
func (x *Index) store(hs []hash, vecs [][]float32) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, h := range hs {
		delete(x.taken, h)
	}
	slots, err := x.vs.add(hs, vecs)
	if errors.Is(err, errDims) {
		// The model behind the name changed: start again from nothing.
		x.log.Warn("the model's vectors changed length; rebuilding", "err", err)
		x.lastErr = err.Error()
		if rerr := x.vs.reset(); rerr != nil {
			return rerr
		}
		x.commit = "" // the follower rebuilds, queueing every chunk
		x.texts, x.queue, x.waiting, x.static = map[hash]string{}, nil, map[hash][]*chunk{}, map[hash][]float32{}
		return nil
	}
	if err != nil {
		return err
	}
	for i, h := range hs {
		if _, ok := x.texts[h]; !ok {
			continue // the index was reset meanwhile
		}
		for _, c := range x.waiting[h] {
			c.slot = slots[i]
		}
		delete(x.waiting, h)
		delete(x.texts, h)
		delete(x.static, h)
	}
	x.lastErr = ""
	return nil
}

// fail records an embedding error and puts the batch back in front of
// the queue.
func (x *Index) fail(hs []hash, err error) {
	x.requeue(hs)
	x.mu.Lock()
	defer x.mu.Unlock()
	x.lastErr = err.Error()
	x.log.Warn("embedding failed; trying again later", "texts", len(hs), "err", err)
	x.moves.moved()
}

// requeue puts a batch not embedded back in front of the queue.
func (x *Index) requeue(hs []hash) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, h := range hs {
		delete(x.taken, h)
	}
	x.queue = append(slices.Clone(hs), x.queue...)
}
