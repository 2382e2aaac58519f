package semantic

import "sync"

// moves tells the index's waiters that its state moved: a batch of vectors
// stored, a batch failed, the notes changed. A waiter takes the channel
// before it reads the state, so that no move between the two is lost.
type moves struct {
	mu sync.Mutex
	ch chan struct{} // closed at the next move; nil until someone waits
}

// next returns a channel closed at the next move.
func (m *moves) next() <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ch == nil {
		m.ch = make(chan struct{})
	}
	return m.ch
}

// moved wakes every waiter.
func (m *moves) moved() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ch != nil {
		close(m.ch)
		m.ch = nil
	}
}

// Changed returns a channel closed the next time State may answer
// otherwise: a batch of vectors is stored, a batch fails, or the notes
// change. Take it before reading State, then wait on it.
func (x *Index) Changed() <-chan struct{} { return x.moves.next() }
