package wiki

import (
	"context"
	"errors"
	"fmt"

	"github.com/wikid/wikid/internal/note"
)

// indexBatch is how many documents go into one index batch.
const indexBatch = 500

// searchStore is the search index as the follower keeps it: every note at
// the store's commit as a Document, with the git times of its file.
type searchStore struct {
	w   *Wiki
	idx Index
	// times holds first and last change times per file; nil until the
	// history walk ran. It changes under the lane's mu, like the index.
	times map[string]pathTime
}

func (s *searchStore) Name() string   { return "search index" }
func (s *searchStore) Commit() string { return s.idx.Commit() }

// Reset empties the index; its file times are computed again.
func (s *searchStore) Reset(ctx context.Context) error {
	s.times = nil
	return s.idx.Reset(ctx)
}

// Apply indexes the notes that changed, in batches: an interrupted update
// leaves the index at u.From, holding some of the new documents, and the
// next one applies them again.
func (s *searchStore) Apply(ctx context.Context, u *Update) error {
	w := s.w
	switch {
	case s.times == nil || u.From == "":
		u.lane.setBuilding(true) // long: searches wait for it, with progress
		times, err := w.fileTimes(ctx, u.To)
		if err != nil {
			return err
		}
		s.times = times
	case !u.When.IsZero():
		w.commitTimes(ctx, u, s.times)
	default:
		if err := w.advanceTimes(ctx, u, s.times); err != nil {
			return err
		}
	}
	changes, err := u.Changes(ctx)
	if err != nil {
		return err
	}
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
			n, f, _, err := u.Note(ctx, ch.Path)
			if err != nil {
				return err
			}
			docs = append(docs, document(n, f, s.times[ch.Path]))
		}
		if len(docs)+len(deleted) >= indexBatch {
			if err := s.idx.Apply(ctx, u.From, docs, deleted); err != nil {
				return err
			}
			docs, deleted = docs[:0], deleted[:0]
			u.Progress(i+1, len(changes))
		}
	}
	return s.idx.Apply(ctx, u.To, docs, deleted)
}

// IndexState describes the search index.
type IndexState struct {
	Commit   string
	Building bool
	Done     int
	Total    int
	Error    string
}

// IndexState reports the search index's commit and whether it is being
// built; the zero state when the wiki has no index.
func (w *Wiki) IndexState() IndexState {
	if w.indexLane == nil {
		return IndexState{}
	}
	st := w.indexLane.state()
	return IndexState{Commit: st.Commit, Building: st.Building, Done: st.Done, Total: st.Total, Error: st.Error}
}

// Reindex brings the index to HEAD; with rebuild it starts from empty.
// progress, if not nil, is called with the documents done and in all.
func (w *Wiki) Reindex(ctx context.Context, rebuild bool, progress func(done, total int)) error {
	if w.indexLane == nil {
		return errors.New("reindex: the wiki has no search index")
	}
	l := w.indexLane
	l.acquire()
	defer l.release()
	if rebuild {
		if err := l.store.Reset(ctx); err != nil {
			return fmt.Errorf("reindex: %w", err)
		}
	}
	head, err := w.store.Head(ctx)
	if err != nil {
		return err
	}
	var report func(Progress)
	if progress != nil {
		report = func(p Progress) { progress(p.Done, p.Total) }
	}
	return w.advance(ctx, l, head.Commit, nil, report)
}

// refreshIndex brings the index to HEAD before a read, waiting for a build
// in progress (see await).
func (w *Wiki) refreshIndex(ctx context.Context) error {
	_, err := w.await(ctx, w.indexLane)
	return err
}
