package wiki

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Closed proposals are kept as history (refs/wikid/proposals-closed/<id>,
// whose last commit says how it closed, by whom and when) for
// Options.KeepClosedProposals from their close, then pruned: the ref is
// deleted, and git's own gc removes the commits no other ref holds. The
// daemon prunes in the background; `wikid proposals prune` does it at once.

// PrunedProposal is a closed proposal that PruneProposals removed, or
// would remove.
type PrunedProposal struct {
	ID string
	// Closed is how it closed: "accepted", "partly accepted", "rejected".
	Closed string
	// At is when it closed, and By who closed it.
	At time.Time
	By Identity
}

// PruneProposals removes the closed proposals closed longer ago than
// Options.KeepClosedProposals, oldest first, and returns them; with
// dryRun it only returns them. A read-only wiki prunes nothing
// (READ_ONLY, unless dryRun).
func (w *Wiki) PruneProposals(ctx context.Context, dryRun bool) ([]PrunedProposal, error) {
	if w.opts.ReadOnly && !dryRun {
		return nil, w.readOnlyError()
	}
	if w.opts.KeepClosedProposals < 0 {
		return nil, nil
	}
	refs, err := w.store.Refs(ctx, ClosedProposalsRef)
	if err != nil {
		return nil, fmt.Errorf("list closed proposals: %w", err)
	}
	var out []PrunedProposal
	tips := map[string]string{}
	for ref, tip := range refs {
		id := strings.TrimPrefix(ref, ClosedProposalsRef)
		info, err := w.store.CommitInfo(ctx, tip)
		if err != nil {
			return nil, fmt.Errorf("read closed proposal %s: %w", id, err)
		}
		if !w.expired(info) {
			continue
		}
		how := "closed"
		if v := trailerValues(info.Message, trailerClosed); len(v) > 0 {
			how = v[0]
		}
		out = append(out, PrunedProposal{ID: id, Closed: how, At: info.Committer.When,
			By: Identity{Name: info.Committer.Name, Email: info.Committer.Email}})
		tips[id] = tip
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].At.Equal(out[j].At) {
			return out[i].At.Before(out[j].At)
		}
		return out[i].ID < out[j].ID
	})
	if dryRun {
		return out, nil
	}
	for i, p := range out {
		err := w.store.SetRef(ctx, ClosedProposalsRef+p.ID, tips[p.ID], "")
		if errors.Is(err, ErrHeadMoved) {
			continue // gone or moved meanwhile: left to the next prune
		}
		if err != nil {
			return out[:i], fmt.Errorf("prune proposal %s: %w", p.ID, err)
		}
	}
	return out, nil
}

// expired reports whether a closed proposal whose last commit is info is
// past its keeping time.
func (w *Wiki) expired(info CommitInfo) bool {
	keep := w.opts.KeepClosedProposals
	return keep >= 0 && w.opts.Now().Sub(info.Committer.When) > keep
}

// closedExpired reports whether the closed proposal at tip is past its
// keeping time; an unreadable one is not.
func (w *Wiki) closedExpired(ctx context.Context, tip string) bool {
	info, err := w.store.CommitInfo(ctx, tip)
	return err == nil && w.expired(info)
}

// PruneProposalsEvery prunes the closed proposals now and then every
// period until ctx is done, logging what it removed; the daemon runs it.
func (w *Wiki) PruneProposalsEvery(ctx context.Context, period time.Duration) {
	if w.opts.ReadOnly || w.opts.KeepClosedProposals < 0 {
		return
	}
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		pruned, err := w.PruneProposals(ctx, false)
		switch {
		case err != nil && ctx.Err() == nil:
			w.log.Warn("pruning closed proposals", "err", err)
		case len(pruned) > 0:
			w.log.Info("pruned closed proposals", "count", len(pruned), "kept for", w.opts.KeepClosedProposals)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
