package wiki

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/wikid/wikid/internal/note"
)

// indexBatch is how many documents go into one index batch.
const indexBatch = 500

// indexer keeps the search index in step with the branch: it catches up in
// the background after Open, applies each wiki commit before the mutation
// returns, and notices commits made by others on the next search.
type indexer struct {
	idx Index
	// mu serializes updates of the index and guards times.
	mu sync.Mutex
	// times holds first and last change times per file; nil until the
	// history walk ran.
	times map[string]pathTime

	stateMu  sync.Mutex
	building bool
	progress [2]int // done, total of the running build
	lastErr  error
}

// lockUnlessBuilding takes mu unless a long build holds it; it reports
// whether it took it.
func (ix *indexer) lockUnlessBuilding() bool {
	for {
		if ix.mu.TryLock() {
			return true
		}
		if ix.state().Building {
			return false
		}
		time.Sleep(time.Millisecond)
	}
}

// IndexState describes the search index.
type IndexState struct {
	Commit   string `json:"commit"`
	Building bool   `json:"building"`
	Done     int    `json:"done,omitempty"`
	Total    int    `json:"total,omitempty"`
	Err      string `json:"error,omitempty"`
}

func (ix *indexer) state() IndexState {
	ix.stateMu.Lock()
	defer ix.stateMu.Unlock()
	st := IndexState{Commit: ix.idx.Commit(), Building: ix.building, Done: ix.progress[0], Total: ix.progress[1]}
	if ix.lastErr != nil {
		st.Err = ix.lastErr.Error()
	}
	return st
}

func (ix *indexer) setBuilding(b bool, err error) {
	ix.stateMu.Lock()
	defer ix.stateMu.Unlock()
	ix.building, ix.lastErr = b, err
	if !b {
		ix.progress = [2]int{}
	}
}

func (ix *indexer) setProgress(done, total int) {
	ix.stateMu.Lock()
	ix.progress = [2]int{done, total}
	ix.stateMu.Unlock()
}

// IndexState reports the search index's commit and whether it is being
// built; the zero state when the wiki has no index.
func (w *Wiki) IndexState() IndexState {
	if w.ix == nil {
		return IndexState{}
	}
	return w.ix.state()
}

// Reindex brings the index to HEAD; with rebuild it starts from empty.
// progress, if not nil, is called with the documents done and in all.
func (w *Wiki) Reindex(ctx context.Context, rebuild bool, progress func(done, total int)) error {
	if w.ix == nil {
		return errors.New("reindex: the wiki has no search index")
	}
	w.ix.mu.Lock()
	defer w.ix.mu.Unlock()
	if rebuild {
		if err := w.ix.idx.Reset(ctx); err != nil {
			return fmt.Errorf("reindex: %w", err)
		}
	}
	head, err := w.store.Head(ctx)
	if err != nil {
		return err
	}
	return w.catchUpLocked(ctx, head.Commit, progress)
}

// catchUp brings the index to HEAD in the background after Open.
func (w *Wiki) catchUp(ctx context.Context) {
	w.ix.mu.Lock()
	defer w.ix.mu.Unlock()
	head, err := w.store.Head(ctx)
	if err == nil {
		err = w.catchUpLocked(ctx, head.Commit, nil)
	}
	if err != nil && ctx.Err() == nil {
		w.log.Error("search index catch-up failed", "err", err)
	}
}

// refreshIndex brings the index to HEAD before a read: it applies the
// commits others made since it was last updated, and waits for a build in
// progress, reporting how far it is to ctx's progress function (see
// WithProgress). A read after it answers from the whole of HEAD, never from
// part of it. It returns the context's error when ctx is done first, and
// an error when the index cannot be brought up to date.
func (w *Wiki) refreshIndex(ctx context.Context) error {
	head, err := w.store.Head(ctx)
	if err != nil {
		return err
	}
	if w.ix.idx.Commit() == head.Commit {
		return nil
	}
	if err := w.ix.lock(ctx); err != nil {
		return err
	}
	defer w.ix.mu.Unlock()
	// A write may have moved HEAD and the index while we waited: catch up
	// to HEAD as it is now, not as it was (an older HEAD would look like
	// rewritten history and force a rebuild).
	if head, err = w.store.Head(ctx); err != nil {
		return err
	}
	return w.catchUpLocked(ctx, head.Commit, func(done, total int) {
		reportProgress(ctx, Progress{Done: done, Total: total, Message: "building the search index"})
	})
}

// lock takes mu, waiting for the build that holds it, if any, and
// reporting its progress; it returns the context's error when ctx is done
// first.
func (ix *indexer) lock(ctx context.Context) error {
	next := time.Now()
	for !ix.mu.TryLock() {
		if now := time.Now(); now.After(next) {
			st := ix.state()
			reportProgress(ctx, Progress{Done: st.Done, Total: st.Total, Message: "waiting for the search index to be built"})
			next = now.Add(progressEvery)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
	return nil
}

// catchUpLocked moves the index from its commit to `to`: incrementally when
// its commit is an ancestor of `to`, else by a rebuild. The caller holds
// ix.mu.
func (w *Wiki) catchUpLocked(ctx context.Context, to string, progress func(done, total int)) (err error) {
	ix := w.ix
	from := ix.idx.Commit()
	if from == to {
		return nil
	}
	defer func() { ix.setBuilding(false, err) }()
	if from != "" {
		ok, err := w.store.IsAncestor(ctx, from, to)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return fmt.Errorf("index catch-up: %w", err)
		}
		if !ok {
			w.log.Info("search index is not on the branch's history; rebuilding", "indexed", short(from), "head", short(to))
			if err := ix.idx.Reset(ctx); err != nil {
				return fmt.Errorf("index catch-up: %w", err)
			}
			from = ""
		}
	}
	if from == "" {
		// An index without a commit may still hold documents from a build
		// that was interrupted; start from empty so none outlive their note.
		if n, err := ix.idx.Len(ctx); err != nil || n > 0 {
			if err := ix.idx.Reset(ctx); err != nil {
				return fmt.Errorf("index catch-up: %w", err)
			}
		}
	}
	if ix.times == nil || from == "" {
		ix.setBuilding(true, nil) // long: searches wait for it, with progress
		if ix.times, err = w.fileTimes(ctx, to); err != nil {
			return err
		}
	} else if err := w.advanceTimes(ctx, from, to); err != nil {
		return err
	}
	changes, err := w.store.Changes(ctx, from, to)
	if err != nil {
		return fmt.Errorf("index catch-up: %w", err)
	}
	snap, err := w.store.Snapshot(ctx, to)
	if err != nil {
		return fmt.Errorf("index catch-up: %w", err)
	}
	if len(changes) > indexBatch {
		ix.setBuilding(true, nil)
	}
	start := time.Now()
	var docs []Document
	var deleted []string
	for i, ch := range changes {
		p, _, ok := note.SplitFileName(ch.Path)
		if !ok {
			continue
		}
		if ch.Delete {
			deleted = append(deleted, p)
		} else {
			f, content, err := snap.Read(ctx, ch.Path)
			if err != nil {
				return fmt.Errorf("index catch-up: %w", err)
			}
			docs = append(docs, document(w.parse(p, f, content), f, ix.times[ch.Path]))
		}
		last := i == len(changes)-1
		if len(docs)+len(deleted) >= indexBatch || last {
			commit := from // an interrupted catch-up resumes from `from`
			if last {
				commit = to
			}
			if err := ix.idx.Apply(ctx, commit, docs, deleted); err != nil {
				return fmt.Errorf("index catch-up: %w", err)
			}
			docs, deleted = docs[:0], deleted[:0]
			ix.setProgress(i+1, len(changes))
			if progress != nil {
				progress(i+1, len(changes))
			}
		}
	}
	if len(docs)+len(deleted) > 0 { // the last changed files were not notes
		if err := ix.idx.Apply(ctx, to, docs, deleted); err != nil {
			return fmt.Errorf("index catch-up: %w", err)
		}
	}
	if ix.idx.Commit() != to { // no markdown file changed
		if err := ix.idx.Apply(ctx, to, nil, nil); err != nil {
			return fmt.Errorf("index catch-up: %w", err)
		}
	}
	w.log.Debug("search index caught up", "from", short(from), "to", short(to), "files", len(changes), "took", time.Since(start))
	return nil
}

// indexCommit applies a wiki commit to the index before the mutation
// returns, so a search issued after it sees the change. If the index is not
// at the commit's parent (a build is running, or others committed), the
// next refresh catches up instead.
func (w *Wiki) indexCommit(ctx context.Context, parent, commit string, when time.Time, changed []*staged) {
	if w.ix == nil || !w.ix.lockUnlessBuilding() {
		return
	}
	defer w.ix.mu.Unlock()
	if w.ix.idx.Commit() != parent || w.ix.times == nil {
		if err := w.catchUpLocked(ctx, commit, nil); err != nil {
			w.log.Warn("search index not updated", "commit", short(commit), "err", err)
		}
		return
	}
	w.commitTimes(ctx, parent, commit, when, changed)
	var docs []Document
	var deleted []string
	for _, s := range changed {
		if s.content == nil {
			deleted = append(deleted, s.notePath)
			continue
		}
		f := File{Path: s.file, Blob: s.version(), Size: int64(len(s.content))}
		docs = append(docs, document(w.parse(s.notePath, f, s.content), f, w.ix.times[s.file]))
	}
	if err := w.ix.idx.Apply(ctx, commit, docs, deleted); err != nil {
		w.log.Warn("search index not updated", "commit", short(commit), "err", err)
	}
}
