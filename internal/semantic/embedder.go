package semantic

import (
	"context"
	"errors"
	"time"
)

// signal wakes the background embedding.
func (x *Index) signal() {
	select {
	case x.wake <- struct{}{}:
	default:
	}
}

// embedLoop embeds the queued texts, a batch at a time, until ctx ends.
// After a failure it waits opts.Retry, or for a new commit.
func (x *Index) embedLoop(ctx context.Context) {
	defer close(x.done)
	for ctx.Err() == nil {
		hs, texts := x.nextBatch()
		if len(hs) == 0 {
			select {
			case <-ctx.Done():
			case <-x.wake:
			}
			continue
		}
		vecs, err := x.emb.Embed(ctx, texts)
		if err == nil {
			err = x.store(hs, vecs)
		}
		if err != nil {
			if ctx.Err() != nil {
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

// nextBatch takes the next texts from the queue.
func (x *Index) nextBatch() ([]hash, []string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	n := max(1, x.emb.BatchSize())
	var hs []hash
	var texts []string
	for len(x.queue) > 0 && len(hs) < n {
		h := x.queue[0]
		x.queue = x.queue[1:]
		if t, ok := x.texts[h]; ok {
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
	slots, err := x.vs.add(hs, vecs)
	if errors.Is(err, errDims) {
		// The model behind the name changed: start again from nothing.
		x.log.Warn("the model's vectors changed length; rebuilding", "err", err)
		x.lastErr = err.Error()
		if rerr := x.vs.reset(); rerr != nil {
			return rerr
		}
		x.commit = "" // the follower rebuilds, queueing every chunk
		x.texts, x.queue, x.waiting = map[hash]string{}, nil, map[hash][]*chunk{}
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
	}
	x.lastErr = ""
	return nil
}

// fail records an embedding error and puts the batch back in front of
// the queue.
func (x *Index) fail(hs []hash, err error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.lastErr = err.Error()
	x.queue = append(hs, x.queue...)
	x.log.Warn("embedding failed; trying again later", "texts", len(hs), "err", err)
}
