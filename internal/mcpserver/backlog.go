package mcpserver

import (
	"context"
	"sync"
)

// A stream session reads requests ahead of those it runs (callsPerSession),
// up to queuedPerSession more and backlogBytes in all, so that it sees its
// input end while they wait: the changes among them are then orphaned at
// once (see Orphans), not only once those before them have run, when the
// client may have come back and read the note already.
const (
	queuedPerSession = 64
	backlogBytes     = 4 * MaxRequestBytes
)

// backlog counts the requests a session has read and not yet finished, and
// their bytes. Only the session's read loop waits on it.
type backlog struct {
	mu    sync.Mutex
	n     int
	bytes int
	wake  chan struct{}
}

func newBacklog() *backlog { return &backlog{wake: make(chan struct{}, 1)} }

// admit waits until a request of size bytes fits, and counts it; it
// returns false when ctx is done first. A request always fits when none
// is counted.
func (b *backlog) admit(ctx context.Context, size int) bool {
	for {
		b.mu.Lock()
		if b.n == 0 || (b.n < callsPerSession+queuedPerSession && b.bytes+size <= backlogBytes) {
			b.n++
			b.bytes += size
			b.mu.Unlock()
			return true
		}
		b.mu.Unlock()
		select {
		case <-b.wake:
		case <-ctx.Done():
			return false
		}
	}
}

// release forgets a request of size bytes that has finished.
func (b *backlog) release(size int) {
	b.mu.Lock()
	b.n--
	b.bytes -= size
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
}
