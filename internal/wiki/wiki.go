package wiki

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/wikid/wikid/internal/note"
)

// Wiki is a wiki over a git repository. Reads are served from immutable
// snapshots of a commit; mutations are serialized by one writer lock and each
// becomes exactly one commit. A Wiki is safe for concurrent use.
type Wiki struct {
	store Store
	opts  Options
	log   *slog.Logger

	// writeMu admits one mutation at a time.
	writeMu sync.Mutex
	notes   *noteCache
	fold    foldIndex   // case-insensitive path lookups
	ix      *indexer    // nil without a search index
	gr      *graphState // nil without a link graph
	hist    History     // nil without a history index
	recent  recentCache
	times   timesCache // git times of every file at one head
	local   localCache // the last scan of the checkout

	cancel context.CancelFunc // stops background work
	bg     sync.WaitGroup
}

// Deps are the adapters a wiki runs on. Only Store is required; without an
// Index search fails, without a History the history tools fail (and the
// index's file times come from a walk of the first-parent history), and
// without a Graph the link tools fail.
type Deps struct {
	Store   Store
	Index   Index
	History History
	Graph   Graph
}

// Open returns a wiki over the adapters in d; Close closes them all. The
// index, history and graph catch up with HEAD in the background: until they
// have, searches answer from what the index holds and IndexState says so.
// Open returns an error if the options are invalid or HEAD cannot be read.
func Open(ctx context.Context, d Deps, opts Options) (*Wiki, error) {
	store, idx, hist := d.Store, d.Index, d.History
	if err := opts.Validate(); err != nil {
		return nil, fmt.Errorf("open wiki: %w", err)
	}
	if _, err := store.Head(ctx); err != nil {
		return nil, fmt.Errorf("open wiki: read HEAD: %w", err)
	}
	w := &Wiki{
		store: store,
		opts:  opts,
		log:   opts.Logger.WithGroup("wiki"),
		notes: newNoteCache(4096),
	}
	bg, cancel := context.WithCancel(context.WithoutCancel(ctx))
	w.cancel = cancel
	if hist != nil {
		w.hist = hist
		w.bg.Add(1)
		go func() {
			defer w.bg.Done()
			if _, err := w.syncHistory(bg); err != nil && bg.Err() == nil {
				w.log.Error("history index catch-up failed", "err", err)
			}
		}()
	}
	if idx != nil {
		w.ix = &indexer{idx: idx}
		w.bg.Add(1)
		go func() {
			defer w.bg.Done()
			w.catchUp(bg)
		}()
	}
	if d.Graph != nil {
		w.gr = &graphState{g: d.Graph}
		w.bg.Add(1)
		go func() {
			defer w.bg.Done()
			if _, err := w.graphAt(bg); err != nil && bg.Err() == nil {
				w.log.Error("link graph build failed", "err", err)
			}
		}()
	}
	return w, nil
}

// Close stops background work, waits for the mutation in flight, if any,
// and closes the index and the store.
func (w *Wiki) Close(ctx context.Context) error {
	w.cancel()
	w.bg.Wait()
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	var errs []error
	if w.ix != nil {
		w.ix.mu.Lock()
		errs = append(errs, w.ix.idx.Close(ctx))
		w.ix.mu.Unlock()
	}
	if w.hist != nil {
		errs = append(errs, w.hist.Close(ctx))
	}
	errs = append(errs, w.store.Close(ctx))
	return errors.Join(errs...)
}

// Options returns the options the wiki runs with, defaults filled in.
func (w *Wiki) Options() Options { return w.opts }

// head returns HEAD and the snapshot of its commit.
func (w *Wiki) head(ctx context.Context) (Head, Snapshot, error) {
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

// parse returns the parsed note for a file's content, cached by blob id:
// blobs are immutable, so a cached parse never goes stale.
func (w *Wiki) parse(notePath string, f File, content []byte) *note.Note {
	if n := w.notes.get(f.Blob, notePath); n != nil {
		return n
	}
	n := note.Parse(notePath, content)
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
