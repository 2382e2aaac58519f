package wiki

import (
	"context"
	"fmt"
	"time"
)

// pathTime is when a file was first and last changed.
type pathTime struct{ created, modified time.Time }

// fileTimes walks the first-parent history from head once and returns, for
// every file changed along it, the committer times of its oldest and newest
// change. It stands in for the per-path history index until that exists.
func (w *Wiki) fileTimes(ctx context.Context, head string) (map[string]pathTime, error) {
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
