package wiki

import (
	"context"
	"maps"
	"slices"
	"time"
)

// WatchProposals calls fn with the ids of the proposals whose refs
// changed (a change proposed, a decision, a close, a prune, a sync), read
// every WatchEvery, until stop is called; stop waits for a call under way.
// It watches the refs, so that it sees what another process did too.
func (w *Wiki) WatchProposals(fn func(ids []string)) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		last, _ := w.proposalTips(ctx)
		tick := time.NewTicker(WatchEvery)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			now, err := w.proposalTips(ctx)
			if err != nil {
				continue
			}
			var moved []string
			for id, tip := range now {
				if last[id] != tip {
					moved = append(moved, id)
				}
			}
			for id := range last {
				if _, ok := now[id]; !ok {
					moved = append(moved, id)
				}
			}
			last = now
			if len(moved) > 0 && ctx.Err() == nil {
				slices.Sort(moved)
				fn(moved)
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// proposalTips returns each proposal's open and closed tips, by id.
func (w *Wiki) proposalTips(ctx context.Context) (map[string]string, error) {
	refs, err := w.LocalProposals(ctx)
	if err != nil {
		return nil, err
	}
	out := maps.Clone(refs.Open)
	if out == nil {
		out = map[string]string{}
	}
	for id, tip := range refs.Closed {
		out[id] += "/" + tip
	}
	return out, nil
}
