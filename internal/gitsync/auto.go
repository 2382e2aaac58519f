package gitsync

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

// Defaults of the daemon's sync.
const (
	DefaultInterval  = 60 * time.Second
	DefaultPushDelay = 5 * time.Second
	// maxBackoff is the longest wait after failed rounds.
	maxBackoff = 15 * time.Minute
	// maxConflicts is how many conflict copies the status remembers.
	maxConflicts = 20
)

// state is what the status tells of past rounds.
type state struct {
	auto        bool
	rounds      int      // rounds begun
	upstream    Upstream // of the last round
	lastSuccess time.Time
	lastError   string
	conflicts   []string
}

// record notes the outcome of a round.
func (s *Syncer) record(res *Result, err error) {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	if err != nil {
		s.state.lastError = err.Error()
		return
	}
	s.state.lastError = ""
	s.state.lastSuccess = s.opts.Now()
	for _, c := range res.Conflicts {
		if c.Copy != "" {
			s.state.conflicts = append(s.state.conflicts, c.Copy)
		}
	}
	if n := len(s.state.conflicts); n > maxConflicts {
		s.state.conflicts = s.state.conflicts[n-maxConflicts:]
	}
}

// SyncStatus tells the state of syncing: the upstream, how far the branch
// and the remote branch are apart as of the last fetch, the last round's
// outcome and the conflict copies made. Until Run starts or a round is
// asked for, it is not Configured: the wiki's Status then says how to
// sync.
func (s *Syncer) SyncStatus(ctx context.Context) wiki.SyncStatus {
	s.stateMu.Lock()
	st := s.state
	st.conflicts = append([]string(nil), s.state.conflicts...)
	s.stateMu.Unlock()
	if !st.auto && st.rounds == 0 {
		// Neither set up to sync nor asked to: nothing to tell, and
		// Status says how to sync.
		return wiki.SyncStatus{Ahead: -1, Behind: -1}
	}
	out := wiki.SyncStatus{Configured: true, Auto: st.auto, Ahead: -1, Behind: -1,
		LastError: st.lastError, Conflicts: st.conflicts}
	if !st.lastSuccess.IsZero() {
		t := st.lastSuccess
		out.LastSuccess = &t
	}
	// The upstream of the last round, or else the branch's: asking git
	// for it costs a few processes, which a status need not pay each time.
	u := st.upstream
	if u.Remote == "" {
		if head, err := s.w.Head(ctx); err == nil && !head.Detached {
			u, _ = upstream(ctx, s.opts.Dir, head.Branch)
		}
	}
	if u.Remote != "" {
		out.Upstream = u.String()
		if counts, err := git(ctx, s.opts.Dir, "rev-list", "--left-right", "--count",
			"HEAD..."+u.tracking()); err == nil {
			if f := strings.Fields(counts); len(f) == 2 {
				out.Ahead, _ = strconv.Atoi(f[0])
				out.Behind, _ = strconv.Atoi(f[1])
			}
		}
	}
	switch {
	case out.Upstream == "":
		out.Message = "sync is set up, but the branch has no remote to sync with"
	case out.LastError != "":
		out.Message = "the last sync with " + out.Upstream + " failed: " + out.LastError
	case out.LastSuccess == nil:
		out.Message = "not synced with " + out.Upstream + " yet"
	default:
		out.Message = fmt.Sprintf("synced with %s at %s", out.Upstream, out.LastSuccess.UTC().Format(time.RFC3339))
	}
	if out.Ahead > 0 || out.Behind > 0 {
		out.Message += fmt.Sprintf("; %d commits to push, %d to integrate as of the last fetch", out.Ahead, out.Behind)
	}
	if st.auto {
		out.Message += "; the daemon syncs by itself"
	}
	return out
}

// Run syncs until ctx is done: a round every interval, and one pushDelay
// after the branch moves (so that commits made within pushDelay of each
// other are pushed together). After a failed round it waits twice as long
// as before, up to 15 minutes, before the next one, changes or not.
func (s *Syncer) Run(ctx context.Context, interval, pushDelay time.Duration) {
	if interval <= 0 {
		interval = DefaultInterval
	}
	if pushDelay <= 0 {
		pushDelay = DefaultPushDelay
	}
	s.stateMu.Lock()
	s.state.auto = true
	s.stateMu.Unlock()

	poll := time.NewTicker(min(pushDelay, time.Second))
	defer poll.Stop()
	wait := interval
	next := time.Now() // a first round at start
	failing := false
	lastHead, changedAt := "", time.Time{}
	for {
		select {
		case <-ctx.Done():
			return
		case <-poll.C:
		}
		now := time.Now()
		if head, err := s.w.Head(ctx); err == nil && head.Commit != lastHead {
			if lastHead != "" {
				changedAt = now
			}
			lastHead = head.Commit
		}
		// A change is pushed soon, unless rounds are failing: then it
		// waits for the next one, which backs off.
		due := !now.Before(next) || !failing && !changedAt.IsZero() && now.Sub(changedAt) >= pushDelay
		if !due {
			continue
		}
		_, err := s.Round(ctx)
		if ctx.Err() != nil {
			return
		}
		failing = err != nil
		if err != nil {
			wait = min(2*wait, maxBackoff)
			s.opts.Logger.Warn("sync failed", "err", err, "next in", wait)
		} else {
			wait = interval
		}
		next, changedAt = time.Now().Add(wait), time.Time{}
		if head, err := s.w.Head(ctx); err == nil {
			lastHead = head.Commit // the round's own merge is not a change to push
		}
	}
}
