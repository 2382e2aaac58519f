package index

import "sync"

// unsaved counts the batches that bleve has applied in memory, and that
// searches see, but has not yet written to disk. The index runs scorch
// with unsafe_batch: Apply does not wait for the disk, which halves the
// time of a write and of a rebuild. Nothing is at risk: a batch reaches
// the disk whole, with its commit, or not at all, and the wiki re-applies
// whatever the recorded commit lacks. Close waits for the disk, so that a
// clean shutdown does not cost a catch-up.
type unsaved struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to 0
}

// add counts one more batch and returns the function that marks it saved;
// calling that function again has no effect.
func (u *unsaved) add() func() {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.n == 0 {
		u.idle = make(chan struct{})
	}
	u.n++
	var once sync.Once
	return func() {
		once.Do(func() {
			u.mu.Lock()
			defer u.mu.Unlock()
			u.n--
			if u.n == 0 {
				close(u.idle)
			}
		})
	}
}

// saved returns a channel that is closed once every batch counted so far
// is on disk.
func (u *unsaved) saved() <-chan struct{} {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.n == 0 {
		done := make(chan struct{})
		close(done)
		return done
	}
	return u.idle
}
