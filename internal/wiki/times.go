package wiki

import (
	"context"
	"fmt"
	"time"

	"github.com/wikid/wikid/internal/note"
)

// pathTime is when a file was first and last changed.
type pathTime struct{ created, modified time.Time }

// fileTimes returns, for every note at head, when it was created and last
// changed. With a history index they come from it, for all notes in one
// pass (the oldest and newest commit of `git log --follow`); without one,
// from one walk of the first-parent history.
func (w *Wiki) fileTimes(ctx context.Context, head string) (map[string]pathTime, error) {
	if w.hist == nil {
		return w.walkFileTimes(ctx, head)
	}
	if err := w.syncHistoryTo(ctx, head); err != nil {
		return nil, fmt.Errorf("file times: %w", err)
	}
	times := map[string]pathTime{}
	if head == "" {
		return times, nil
	}
	snap, err := w.store.Snapshot(ctx, head)
	if err != nil {
		return nil, fmt.Errorf("file times: %w", err)
	}
	all, err := snap.Files(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("file times: %w", err)
	}
	var files []string
	for _, f := range all {
		if _, _, ok := note.SplitFileName(f.Path); ok {
			files = append(files, f.Path)
		}
	}
	if err := w.historyTimes(ctx, head, files, times); err != nil {
		return nil, err
	}
	return times, nil
}

// historyTimes sets the times of files at head from the history index.
func (w *Wiki) historyTimes(ctx context.Context, head string, files []string, times map[string]pathTime) error {
	ts, err := w.hist.Times(ctx, head, files)
	if err != nil {
		return fmt.Errorf("file times: %w", err)
	}
	for f, t := range ts {
		times[f] = pathTime{created: t.Created, modified: t.Modified}
	}
	return nil
}

// advanceTimes brings times up to date with the files an update changed,
// made by others: from the history index, or as changed when their commit
// was made.
func (w *Wiki) advanceTimes(ctx context.Context, u *Update, times map[string]pathTime) error {
	changes, err := u.Changes(ctx)
	if err != nil {
		return err
	}
	if w.hist != nil {
		if err := w.syncHistoryTo(ctx, u.To); err != nil {
			return fmt.Errorf("file times: %w", err)
		}
		var files []string
		for _, ch := range changes {
			if ch.Delete {
				delete(times, ch.Path)
			} else {
				files = append(files, ch.Path)
			}
		}
		return w.historyTimes(ctx, u.To, files, times)
	}
	info, err := w.store.CommitInfo(ctx, u.To)
	if err != nil {
		return err
	}
	for _, ch := range changes {
		touch(times, ch.Path, ch.Delete, info.Committer.When)
	}
	return nil
}

// commitTimes records the times of the files a wiki commit changed: from
// the history index when it already holds the commit (the follower brings
// it there first); else (no index, or one still building, which the
// commit must not wait for) as changed at the commit's time.
func (w *Wiki) commitTimes(ctx context.Context, u *Update, times map[string]pathTime) {
	var files []string
	for _, ch := range u.changes {
		touch(times, ch.Path, ch.Delete, u.When)
		if !ch.Delete {
			files = append(files, ch.Path)
		}
	}
	if w.hist == nil || w.hist.Commit() != u.To {
		return
	}
	if err := w.historyTimes(ctx, u.To, files, times); err != nil {
		w.log.Warn("file times not read from the history index", "commit", short(u.To), "err", err)
	}
}

// touch records a change of file at when.
func touch(times map[string]pathTime, file string, deleted bool, when time.Time) {
	if deleted {
		delete(times, file)
		return
	}
	t, ok := times[file]
	if !ok {
		t.created = when
	}
	t.modified = when
	times[file] = t
}

// walkFileTimes walks the first-parent history from head once and returns,
// for every file changed along it, the committer times of its oldest and
// newest change; it serves a wiki without a history index.
func (w *Wiki) walkFileTimes(ctx context.Context, head string) (map[string]pathTime, error) {
	times := map[string]pathTime{}
	for c := head; c != ""; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		info, err := w.store.CommitInfo(ctx, c)
		if err != nil {
			return nil, fmt.Errorf("file times: %w", err)
		}
		parent := ""
		if len(info.Parents) > 0 {
			parent = info.Parents[0]
		}
		changes, err := w.store.Changes(ctx, parent, c)
		if err != nil {
			return nil, fmt.Errorf("file times: %w", err)
		}
		when := info.Committer.When
		for _, ch := range changes {
			if ch.Delete {
				continue
			}
			t := times[ch.Path]
			if t.modified.IsZero() {
				t.modified = when
			}
			t.created = when
			times[ch.Path] = t
		}
		c = parent
	}
	return times, nil
}
