package semantic

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// TestSearches_Yield holds a search open and counts the batches the
// workers start meanwhile: none, until it ends.
func TestSearches_Yield(t *testing.T) {
	var s searches
	end := s.begin()
	var passed atomic.Int32
	done := make(chan struct{})
	for w := range 2 {
		go func() {
			defer func() { done <- struct{}{} }()
			if err := s.yield(context.Background(), w, 2); err == nil {
				passed.Add(1)
			}
		}()
	}
	time.Sleep(100 * time.Millisecond) // well within maxYield
	if n := passed.Load(); n != 0 {
		t.Fatalf("%d workers went on while a search ran", n)
	}
	end()
	<-done // worker 0 goes on at once
	if n := passed.Load(); n != 1 {
		t.Fatalf("%d workers went on as the search ended, want 1 (the other waits for quietAfter)", n)
	}
	<-done
	if n := passed.Load(); n != 2 {
		t.Fatalf("%d workers went on after quietAfter", n)
	}

	// A context that ends stops the wait.
	end = s.begin()
	defer end()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.yield(ctx, 0, 2); err == nil {
		t.Error("yield returned nil for an ended context")
	}
}

// handOver ends the search running and begins the next one in one step,
// as a client's searches back to back do when a waiting worker never
// sees the moment between them.
func (s *searches) handOver() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ended = time.Now()
	close(s.idle)
	s.idle = make(chan struct{})
}

// TestSearches_YieldBounded holds searches back to back, one handed over
// to the next every millisecond, and counts the hand-overs until a batch
// may start: the yield to searches is bounded as a whole, so the batch
// starts after about limit's worth of them (100), not never.
func TestSearches_YieldBounded(t *testing.T) {
	s := searches{limit: 100 * time.Millisecond}
	end := s.begin()
	defer end()
	yielded := make(chan error, 1)
	go func() { yielded <- s.yield(context.Background(), 0, 1) }()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	const most = 5000 // 50 times the bound's worth
	for handovers := 0; ; handovers++ {
		select {
		case err := <-yielded:
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("a batch may start after %d searches back to back", handovers)
			return
		case <-tick.C:
		}
		if handovers == most {
			t.Fatalf("no batch may start after %d searches back to back", most)
		}
		s.handOver()
	}
}
