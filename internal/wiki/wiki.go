package wiki

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/wikid/wikid/internal/note"
)

// Wiki is a wiki over a git repository. Reads are served from immutable
// snapshots of a commit; mutations are serialized by one writer lock and each
// becomes exactly one commit. A Wiki is safe for concurrent use.
type Wiki struct {
	store Store
	opts  Options
	log   *slog.Logger

	// branch is the branch the wiki writes to (a string): the one checked
	// out when it opened ("" if HEAD was detached then: whichever is
	// checked out), or the one checked out after it was deleted.
	branch atomic.Value
	// writeMu admits one mutation at a time.
	writeMu sync.Mutex
	// reviewURL is where the review pages are served, once known
	// (SetReviewURL); Options.ReviewURL until then.
	reviewURL atomic.Pointer[string]
	// proposalIDs maps a proposing session to its proposal's id.
	proposalIDs sync.Map
	// proposalStates caches a proposal's state by its tip commit.
	proposalStates sync.Map
	// proposalScratches keeps the search indexes of proposals' notes.
	proposalScratches proposalScratches
	// proposalSessions are the proposals of each session, and what it was
	// told of them.
	proposalSessions sessionProposals
	notes            *noteCache
	fold             foldIndex // case-insensitive path lookups
	hist             History
	index            Index
	graph            Graph
	// semantic is nil unless semantic search is configured.
	semantic Semantic
	recent   recentCache
	times    timesCache  // git times of every file at one head
	local    localCache  // the last scan of the checkout
	listed   noteList    // the note files of the last commit listed
	scanning foreground  // the searches answering from a scan
	hubs     hubCache    // the hub probes' neighbours, for the last semantic index state
	scanned  scanCache   // the notes the scans read, kept for the next
	complete completions // the notes and folders at one head, ranked

	// lanes are the derived stores the follower keeps in step with HEAD,
	// in the order they take a commit: the history index first, which the
	// search index's file times read. semanticLane is nil without semantic
	// search.
	lanes                             []*lane
	historyLane, indexLane, graphLane *lane
	semanticLane                      *lane
	// files is how many files the last build from nothing read.
	files atomic.Int64

	cancel context.CancelFunc // stops background work
	bg     sync.WaitGroup
	// follower applies the wiki's own commits to the derived stores
	// after the mutations answered (see committed).
	follower *follower
	// watchers are told of every move of the branch (see Watch).
	watchers watchers

	syncMu   sync.Mutex
	sync     SyncReporter    // nil when nothing syncs
	restores RestoreReporter // nil without a guard
}

// Deps are the adapters a wiki runs on. Store, Index, History and Graph are
// required; Semantic and Derived are optional.
type Deps struct {
	Store   Store
	Index   Index
	History History
	Graph   Graph
	// Semantic, when not nil, answers searches by meaning.
	Semantic Semantic
	// Derived are further stores for the follower to keep in step with
	// HEAD, after the others.
	Derived []DerivedStore
}

// Open returns a wiki over the adapters in d; Close closes them all. The
// derived stores (the history index, the search index, the link graph)
// catch up with HEAD in the background: until one has, a read that needs it
// waits for it, and IndexState and Derived say how far it is.
// Open returns an error if a required adapter is missing, the options are
// invalid or HEAD cannot be read.
func Open(ctx context.Context, d Deps, opts Options) (*Wiki, error) {
	if err := d.check(); err != nil {
		return nil, fmt.Errorf("open wiki: %w", err)
	}
	if err := opts.Validate(); err != nil {
		return nil, fmt.Errorf("open wiki: %w", err)
	}
	head, err := d.Store.Head(ctx)
	if err != nil {
		return nil, fmt.Errorf("open wiki: read HEAD: %w", err)
	}
	w := &Wiki{
		store: d.Store,
		opts:  opts,
		log:   opts.Logger.WithGroup("wiki"),
		notes: newNoteCache(4096, noteCacheBudget),
		hist:  d.History,
		index: d.Index,
		graph: d.Graph,
	}
	w.branch.Store(head.Branch)
	w.historyLane = w.addLane(d.History)
	w.indexLane = w.addLane(d.Index)
	w.graphLane = w.addLane(d.Graph)
	if d.Semantic != nil {
		w.semantic = d.Semantic
		w.semanticLane = w.addLane(d.Semantic)
	}
	for _, s := range d.Derived {
		w.addLane(s)
	}
	bg, cancel := context.WithCancel(context.WithoutCancel(ctx))
	w.cancel = cancel
	w.follow(bg, head.Commit)
	// Close lets the follower finish what is queued, so its context is
	// not cancelled.
	w.follower = newFollower()
	go w.followCommits(context.WithoutCancel(ctx), bg)
	return w, nil
}

// ReleaseCaches empties what the store caches for long walks (decoded
// trees and objects): a daemon calls it once its first build is over, so
// that it keeps what it needs, not what it built with.
func (w *Wiki) ReleaseCaches() { w.store.ReleaseCaches() }

// Close stops background work, waits for the mutation in flight, if any,
// and for the derived stores to take the wiki's last commits, and closes
// the index and the store.
func (w *Wiki) Close(ctx context.Context) error {
	w.closeWatchers()
	w.cancel()
	w.bg.Wait()
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	w.stopFollowing()
	var errs []error
	w.proposalScratches.closeAll()
	w.indexLane.acquire()
	errs = append(errs, w.index.Close(ctx))
	w.indexLane.release()
	errs = append(errs, w.hist.Close(ctx))
	if w.semantic != nil {
		w.semanticLane.acquire()
		errs = append(errs, w.semantic.Close(ctx))
		w.semanticLane.release()
	}
	errs = append(errs, w.store.Close(ctx))
	return errors.Join(errs...)
}

// check returns an error naming the first required adapter missing.
func (d Deps) check() error {
	switch {
	case d.Store == nil:
		return errors.New("no store: Deps.Store is required")
	case d.Index == nil:
		return errors.New("no search index: Deps.Index is required")
	case d.History == nil:
		return errors.New("no history index: Deps.History is required")
	case d.Graph == nil:
		return errors.New("no link graph: Deps.Graph is required")
	}
	return nil
}

// addLane adds a derived store for the follower.
func (w *Wiki) addLane(s DerivedStore) *lane {
	l := newLane(s)
	w.lanes = append(w.lanes, l)
	return l
}

// Options returns the options the wiki runs with, defaults filled in.
func (w *Wiki) Options() Options { return w.opts }

// head returns HEAD and the snapshot of its commit.
func (w *Wiki) head(ctx context.Context) (Head, Snapshot, error) {
	h, snap, err := w.branchHead(ctx)
	if err != nil {
		return h, snap, err
	}
	if id, ok := ctx.Value(proposalViewKey{}).(string); ok {
		if snap, err = w.proposalView(ctx, id, h, snap); err != nil {
			return Head{}, nil, err
		}
	}
	return h, snap, nil
}

// branchHead returns HEAD and its snapshot, whichever session asks.
func (w *Wiki) branchHead(ctx context.Context) (Head, Snapshot, error) {
	h, err := w.store.Head(ctx)
	if err != nil {
		return Head{}, nil, fmt.Errorf("read HEAD: %w", err)
	}
	snap, err := w.store.Snapshot(ctx, h.Commit)
	if err != nil {
		return Head{}, nil, fmt.Errorf("snapshot %s: %w", short(h.Commit), err)
	}
	return h, snap, nil
}

// snapshotAt returns the snapshot of a revision ("" means HEAD).
func (w *Wiki) snapshotAt(ctx context.Context, rev string) (Snapshot, error) {
	if rev == "" {
		_, snap, err := w.head(ctx)
		return snap, err
	}
	commit, err := w.store.ResolveRevision(ctx, rev)
	if err != nil {
		if errors.Is(err, ErrNotFound) || errors.Is(err, ErrAmbiguous) {
			return nil, err
		}
		return nil, fmt.Errorf("resolve version %q: %w", rev, err)
	}
	return w.store.Snapshot(ctx, commit)
}

// parse returns the parsed note for a file's content, its dates without a
// zone read in the wiki's, cached by blob id: blobs are immutable, so a
// cached parse never goes stale.
func (w *Wiki) parse(notePath string, f File, content []byte) *note.Note {
	if n := w.notes.get(f.Blob, notePath); n != nil {
		return n
	}
	n := note.ParseIn(notePath, content, w.opts.Location)
	w.notes.put(f.Blob, n)
	return n
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	if sha == "" {
		return "(none)"
	}
	return sha
}
