package gitsync

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

// maxPushes is how many times a round integrates and pushes again when its
// push is rejected because the remote moved meanwhile; between tries it
// waits a random while, longer each time, so that machines pushing at once
// take turns.
const maxPushes = 5

// Options configure a Syncer.
type Options struct {
	// Dir is where git runs: the checkout, or the git directory of a bare
	// repository; by default the repository's git directory.
	Dir string
	// Now is the clock, for the dates of conflict copies.
	Now    func() time.Time
	Logger *slog.Logger
}

// Syncer runs sync rounds for one wiki, one at a time. The program makes
// one per wiki and hands it to whatever syncs: the daemon's timer, the
// sync command, the sync tool.
type Syncer struct {
	w    *wiki.Wiki
	opts Options
	mu   sync.Mutex // one round at a time

	stateMu sync.Mutex
	state   state
}

// New returns a Syncer of the wiki w. It reads and writes the repository
// through w; git reaches the remotes (see remote.go).
func New(w *wiki.Wiki, opts Options) *Syncer {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Dir == "" {
		opts.Dir = w.GitDir()
	}
	return &Syncer{w: w, opts: opts}
}

// Result is what a sync round did.
type Result struct {
	// Upstream is the remote branch synced with, "origin/main".
	Upstream string
	// Remote is the remote branch's commit after the fetch; "" when the
	// remote had no such branch.
	Remote string
	// Integrated is wiki.IntegratedAlready, IntegratedFastForward or
	// IntegratedMerge.
	Integrated string
	// Pushed says whether the branch was pushed.
	Pushed bool
	// Commit is the branch's commit after the round, which the remote
	// branch now has too.
	Commit string
	// Merged and Conflicts are what a merge did.
	Merged    []string
	Conflicts []Conflict
	// Proposals says what the exchange of proposals did, one sentence
	// each: one closed here because it was closed on the other side, and
	// the like.
	Proposals []string
}

// Round runs one sync round: fetch the branch's upstream, integrate it
// (nothing, a fast-forward, or one merge commit that merges notes line by
// line and keeps a conflict copy of what does not merge), push. A push the
// remote rejects because it moved meanwhile starts the round again, up to
// maxPushes times. It refuses, with CONFLICT and nothing changed, a remote
// whose branch no longer contains what it had at the last fetch (its
// history was rewritten). It returns INVALID_PARAMS when the branch has no
// upstream, and git's own message, without secrets, when the remote cannot
// be reached or refuses the credentials.
func (s *Syncer) Round(ctx context.Context) (*Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stateMu.Lock()
	s.state.rounds++
	s.stateMu.Unlock()
	res, err := s.round(ctx)
	if err == nil {
		// Review marks travel too, after a round that reached the remote;
		// their failure is reported, not the round's.
		s.stateMu.Lock()
		u := s.state.upstream
		s.stateMu.Unlock()
		if nerr := s.syncNotes(ctx, u); nerr != nil && ctx.Err() == nil {
			s.opts.Logger.Warn("syncing the review marks", "upstream", u.String(), "err", nerr)
		}
		// So do proposals, unless the wiki keeps them local.
		report, perr := s.syncProposals(ctx, u)
		res.Proposals = report
		if perr != nil && ctx.Err() == nil {
			s.opts.Logger.Warn("syncing the proposals", "upstream", u.String(), "err", perr)
			res.Proposals = append(res.Proposals, "proposals not synced: "+perr.Error())
		}
	}
	s.record(res, err)
	return res, err
}

func (s *Syncer) round(ctx context.Context) (*Result, error) {
	head, err := s.w.Head(ctx)
	if err != nil {
		return nil, fmt.Errorf("sync: %w", err)
	}
	if head.Detached {
		return nil, wiki.Errorf(wiki.CodeReadOnly, "HEAD is detached, so there is no branch to sync").
			WithHint("check out a branch, then sync")
	}
	u, err := upstream(ctx, s.opts.Dir, head.Branch)
	if err != nil {
		return nil, err
	}
	s.stateMu.Lock()
	s.state.upstream = u
	s.stateMu.Unlock()
	res := &Result{Upstream: u.String()}
	for attempt := 1; ; attempt++ {
		if err := s.integrate(ctx, u, res); err != nil {
			return nil, err
		}
		if res.Commit == "" || res.Commit == res.Remote {
			return res, nil
		}
		err := push(ctx, s.opts.Dir, res.Commit, u)
		if errors.Is(err, ErrRejected) && attempt < maxPushes {
			s.opts.Logger.Info("push rejected, the remote moved; syncing again", "upstream", u.String(), "attempt", attempt)
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(time.Duration(attempt) * time.Duration(50+rand.IntN(150)) * time.Millisecond):
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		res.Pushed = true
		return res, nil
	}
}

// integrate fetches the upstream and brings it into the branch.
func (s *Syncer) integrate(ctx context.Context, u Upstream, res *Result) error {
	before, err := s.commitOf(ctx, u.tracking())
	if err != nil {
		return err
	}
	found, err := fetch(ctx, s.opts.Dir, u)
	if err != nil {
		return err
	}
	theirs := ""
	if found {
		if theirs, err = s.commitOf(ctx, u.tracking()); err != nil {
			return err
		}
	}
	res.Remote = theirs
	if theirs == "" {
		head, err := s.w.Head(ctx)
		if err != nil {
			return fmt.Errorf("sync: %w", err)
		}
		res.Integrated, res.Commit = wiki.IntegratedAlready, head.Commit
		return nil
	}
	if before != "" && before != theirs {
		if ok, err := s.w.IsAncestor(ctx, before, theirs); err != nil {
			return fmt.Errorf("sync: %w", err)
		} else if !ok {
			// Put the tracking ref back, so that the next round refuses too.
			_, _ = git(ctx, s.opts.Dir, "update-ref", u.tracking(), before)
			return wiki.Errorf(wiki.CodeConflict, "the history of %s was rewritten: it no longer contains %s, which it had", u, short(before)).
				WithHint("sync refuses to merge a rewritten history; integrate it with git by hand (git fetch, then git merge or git rebase)")
		}
	}
	m := &merger{store: s.w, label: u.Remote, now: s.opts.Now()}
	out, err := s.w.Integrate(ctx, wiki.IntegrateRequest{
		Theirs:  theirs,
		Subject: "sync: merge " + u.String(),
		Merge: func(ctx context.Context, base, ours, theirs string) ([]wiki.FileChange, string, error) {
			m.report = MergeReport{}
			changes, err := m.merge(ctx, base, ours, theirs)
			if err != nil {
				return nil, "", err
			}
			return changes, m.report.message(u.String() + " at " + short(theirs)), nil
		},
	})
	if err != nil {
		return err
	}
	res.Integrated, res.Commit = out.How, out.Commit
	if out.How == wiki.IntegratedMerge {
		// A round whose push was rejected merges again: it reports the
		// merges of every try, each in the branch's history.
		res.Merged = append(res.Merged, m.report.Merged...)
		res.Conflicts = append(res.Conflicts, m.report.Conflicts...)
	}
	return nil
}

// commitOf returns the commit a ref points at, "" when there is no such
// ref.
func (s *Syncer) commitOf(ctx context.Context, ref string) (string, error) {
	c, err := s.w.Commit(ctx, ref)
	if wiki.CodeOf(err) == wiki.CodeNotFound {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("sync: read %s: %w", ref, err)
	}
	return c.ID, nil
}

func short(id string) string { return id[:min(len(id), 12)] }
