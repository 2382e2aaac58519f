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
