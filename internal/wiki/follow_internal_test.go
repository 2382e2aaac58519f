package wiki

import (
	"context"
	"slices"
	"testing"
	"time"
)

// nopStore is a derived store that holds nothing.
type nopStore struct{}

func (nopStore) Name() string                         { return "nothing" }
func (nopStore) Commit() string                       { return "" }
func (nopStore) Reset(context.Context) error          { return nil }
func (nopStore) Apply(context.Context, *Update) error { return nil }

// TestLane_lock checks that a call waiting for a lane takes it the moment
// it is released, rather than when it next looks.
func TestLane_lock(t *testing.T) {
	ctx := context.Background()
	l := newLane(nopStore{})
	const rounds = 15
	// handoff measures, rounds times, how long a waiter blocked in wait
	// takes to go on once release is called: the median.
	handoff := func(acquire, release func(), wait func()) time.Duration {
		var waits []time.Duration
		for range rounds {
			acquire()
			took := make(chan time.Time)
			go func() {
				wait()
				took <- time.Now()
				release()
			}()
			time.Sleep(3 * time.Millisecond) // the waiter is waiting
			released := time.Now()
			release()
			waits = append(waits, (<-took).Sub(released))
		}
		slices.Sort(waits)
		return waits[rounds/2]
	}
	lane := handoff(l.acquire, l.release, func() {
		if err := l.lock(ctx); err != nil {
			t.Error(err)
		}
	})
	// The same handoff through a bare channel is the machine's pace now.
	ch := make(chan struct{}, 1)
	bare := handoff(func() { ch <- struct{}{} }, func() { <-ch }, func() { ch <- struct{}{} })
	// Polling every 5 ms made the lane's median about 2.5 ms, where a
	// bare channel hands over in microseconds.
	if lane > 2*bare+time.Millisecond {
		t.Errorf("a waiter took the released lane after %v (median of %d), a bare channel after %v: want at once", lane, rounds, bare)
	}
	t.Run("cancelled", func(t *testing.T) {
		l.acquire()
		defer l.release()
		ctx, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
		defer cancel()
		if err := l.lock(ctx); err != context.DeadlineExceeded {
			t.Errorf("lock = %v, want the context's error", err)
		}
	})
}

// TestLane_lockUnlessBuilding checks that a mutation waits for a short
// update and not for a long one, even when the update turns long while it
// waits.
func TestLane_lockUnlessBuilding(t *testing.T) {
	l := newLane(nopStore{})
	l.acquire()
	got := make(chan bool)
	go func() { got <- l.lockUnlessBuilding() }()
	time.Sleep(time.Millisecond)
	l.release()
	if !<-got {
		t.Fatal("a mutation did not take the lane a short update released")
	}
	l.release()

	l.acquire()
	go func() { got <- l.lockUnlessBuilding() }()
	time.Sleep(time.Millisecond)
	l.setBuilding(true) // the update turns out long
	select {
	case took := <-got:
		if took {
			t.Error("a mutation took the lane of a long update")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a mutation waits for a long update")
	}
	l.finish(nil)
	l.release()
	if !l.lockUnlessBuilding() {
		t.Error("the lane of a finished update was not taken")
	}
}

// TestMergeUpdates checks the update that a burst of the wiki's commits
// makes for a store: each file as the last commit left it, with the
// version it had before the first; a file made and deleted in the burst is
// no change, one deleted and made again is a change.
func TestMergeUpdates(t *testing.T) {
	commit := func(from, to string, changes ...FileChange) *followUp {
		return &followUp{update: &Update{From: from, To: to, changes: changes, listed: true}}
	}
	batch := []*followUp{
		commit("c0", "c1", FileChange{Path: "b.md", Content: []byte("b1"), OldBlob: "b0", NewBlob: "b1"},
			FileChange{Path: "tmp.md", Content: []byte("t"), NewBlob: "t1"}),
		commit("c1", "c2", FileChange{Path: "a.md", Content: []byte("a"), NewBlob: "a1"},
			FileChange{Path: "d.md", Delete: true, OldBlob: "d0"}),
		commit("c2", "c3", FileChange{Path: "b.md", Content: []byte("b2"), OldBlob: "b1", NewBlob: "b2"},
			FileChange{Path: "d.md", Content: []byte("d"), NewBlob: "d1"},
			FileChange{Path: "tmp.md", Delete: true, OldBlob: "t1"}),
	}
	u := mergeUpdates(batch)
	if u.From != "c0" || u.To != "c3" {
		t.Errorf("update %s..%s, want c0..c3", u.From, u.To)
	}
	var got []string
	for _, ch := range u.changes {
		got = append(got, ch.Path+" "+ch.OldBlob+">"+ch.NewBlob+" "+string(ch.Content))
		if u.own[ch.Path] == nil || string(u.own[ch.Path].Content) != string(ch.Content) {
			t.Errorf("%s: own content %v", ch.Path, u.own[ch.Path])
		}
	}
	want := []string{"a.md >a1 a", "b.md b0>b2 b2", "d.md d0>d1 d"}
	if !slices.Equal(got, want) {
		t.Errorf("changes %q, want %q", got, want)
	}
}
