package wiki

import (
	"context"
	"sync"
	"time"
)

// foreground counts the searches that answer from a scan while the index
// is built. A long update of a derived store yields to them between its
// pieces (Update.Yield), so that an answer a client waits for does not
// share the machine with the build.
type foreground struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n falls to 0
}

// begin counts one more scan; end, its pair, one less.
func (f *foreground) begin() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == 0 {
		f.idle = make(chan struct{})
	}
	f.n++
}

func (f *foreground) end() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n--; f.n == 0 {
		close(f.idle)
	}
}

// maxYield bounds one wait of Yield, so that searches in a row cannot hold
// a build back for longer than a search takes.
const maxYield = 2 * time.Second

// wait returns once no scan runs, after maxYield, or when ctx is done.
func (f *foreground) wait(ctx context.Context) error {
	f.mu.Lock()
	n, idle := f.n, f.idle
	f.mu.Unlock()
	if n == 0 {
		return nil
	}
	t := time.NewTimer(maxYield)
	defer t.Stop()
	select {
	case <-idle:
	case <-t.C:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// Yield waits while a search answers from a scan (at most a couple of
// seconds): a store calls it between the pieces of a long update. It
// returns the context's error when ctx is done.
func (u *Update) Yield(ctx context.Context) error {
	return u.w.scanning.wait(ctx)
}
