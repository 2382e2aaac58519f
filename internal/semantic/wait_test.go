package semantic_test

import (
	"testing"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

// watched is a semantic index whose state a test waits on: semantic.Index,
// or wiki.Semantic.
type watched interface {
	State() wiki.SemanticState
	Changed() <-chan struct{}
}

// waitFor waits on sem's Changed until done holds of its state, and
// returns that state; it fails the test when done does not hold within a
// minute.
func waitFor(tb testing.TB, sem watched, done func(wiki.SemanticState) bool) wiki.SemanticState {
	tb.Helper()
	timeout := time.NewTimer(time.Minute)
	defer timeout.Stop()
	for {
		changed := sem.Changed()
		st := sem.State()
		if done(st) {
			return st
		}
		select {
		case <-changed:
		case <-timeout.C:
			tb.Fatalf("the semantic index did not get there: %+v", st)
		}
	}
}

// noneWaiting reports whether nothing waits for the model.
func noneWaiting(st wiki.SemanticState) bool { return st.Pending == 0 }
