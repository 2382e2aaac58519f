package wiki

import (
	"context"
	"testing"
	"time"
)

// TestForeground_Wait checks that a store yields while a scan runs and
// goes on once it ended, or when its context is done.
func TestForeground_Wait(t *testing.T) {
	ctx := context.Background()
	var f foreground
	if err := f.wait(ctx); err != nil {
		t.Fatalf("no scan: %v", err)
	}
	f.begin()
	f.begin()
	waited := make(chan error, 1)
	go func() { waited <- f.wait(ctx) }()
	f.end()
	select {
	case err := <-waited:
		t.Fatalf("returned while a scan runs: %v", err)
	case <-time.After(20 * time.Millisecond):
	}
	f.end()
	if err := <-waited; err != nil {
		t.Fatal(err)
	}
	f.begin()
	done, cancel := context.WithCancel(ctx)
	cancel()
	if err := f.wait(done); err == nil {
		t.Fatal("a done context: no error")
	}
	f.end()
}
