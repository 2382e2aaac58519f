package mcpserver

import (
	"context"
	"sync"
)

// Orphans are the changes still running of stream sessions whose input
// ended: a client that went away in the middle of a change (a bridge that
// was killed) may come back at once on a new session and read the note,
// and must not see the change not made and then have it land. A request
// that reads or changes notes (a tool call, a resource read, a prompt, a
// completion) on any stream session of the servers that share an Orphans
// waits until the changes that were orphaned before it came have settled,
// made or not; the changes themselves are neither cancelled nor held: each
// runs to its end, as it would have for its client. The zero value is
// ready; Options.Orphans shares one between servers.
type Orphans struct {
	mu sync.Mutex
	// open holds a channel for each session whose input ended while some
	// of its changes ran, closed once they have ended.
	open map[chan struct{}]struct{}
	// waiting counts the requests that wait for them.
	waiting int
}

// Pending returns how many sessions whose input ended have changes still
// running, and how many requests wait for them.
func (o *Orphans) Pending() (sessions, waiting int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.open), o.waiting
}

// adopt takes the changes of a session whose input ended: running counts
// those still running.
func (o *Orphans) adopt(running *sync.WaitGroup) {
	done := make(chan struct{})
	o.mu.Lock()
	if o.open == nil {
		o.open = map[chan struct{}]struct{}{}
	}
	o.open[done] = struct{}{}
	o.mu.Unlock()
	go func() {
		running.Wait()
		o.mu.Lock()
		delete(o.open, done)
		o.mu.Unlock()
		close(done)
	}()
}

// pending returns what a request that comes now waits for.
func (o *Orphans) pending() []chan struct{} {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.open) == 0 {
		return nil
	}
	waits := make([]chan struct{}, 0, len(o.open))
	for c := range o.open {
		waits = append(waits, c)
	}
	return waits
}

// settle waits until the changes of waits have ended, or ctx is done.
func (o *Orphans) settle(ctx context.Context, waits []chan struct{}) {
	if len(waits) == 0 {
		return
	}
	o.mu.Lock()
	o.waiting++
	o.mu.Unlock()
	defer func() {
		o.mu.Lock()
		o.waiting--
		o.mu.Unlock()
	}()
	for _, c := range waits {
		select {
		case <-c:
		case <-ctx.Done():
			return
		}
	}
}

// settles reports whether a request of method waits for the orphaned
// changes: those that read or change notes do.
func settles(method string) bool {
	switch method {
	case "tools/call", "resources/read", "prompts/get", "completion/complete":
		return true
	}
	return false
}

// mutating reports whether a tools/call of the named tool may change the
// wiki.
func (s *Server) mutating(name string) bool {
	t, ok := s.tools[name]
	return ok && t.Mutating && !s.opts.ReadOnly
}
