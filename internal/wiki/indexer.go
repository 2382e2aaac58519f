package wiki

import (
	"context"
	"fmt"
)

// IndexState describes the search index.
type IndexState struct {
	Commit   string
	Building bool
	Done     int
	Total    int
	Error    string
}

// IndexState reports the search index's commit and whether it is being
// built.
func (w *Wiki) IndexState() IndexState {
	st := w.indexLane.state()
	return IndexState{Commit: st.Commit, Building: st.Building, Done: st.Done, Total: st.Total, Error: st.Error}
}

// Reindex brings the index to HEAD; with rebuild it starts from empty.
// progress, if not nil, is called with the documents done and in all.
func (w *Wiki) Reindex(ctx context.Context, rebuild bool, progress func(done, total int)) error {
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
