package mcpserver

import (
	"testing"
	"time"
)

// TestProgressMeter_Heartbeat checks that a call whose wiki reports every
// half second without finishing a piece still sends a notification for
// each report, with increasing values that never reach the next piece,
// and none for a report sooner than the heartbeat.
func TestProgressMeter_Heartbeat(t *testing.T) {
	var m progressMeter
	start := time.Unix(0, 0)
	type step struct {
		done int
		at   time.Duration
		want float64 // -1: nothing sent
	}
	steps := []step{
		{500, 0, 500},
		{500, 100 * time.Millisecond, -1},
		{500, 500 * time.Millisecond, 500.5},
		{500, 800 * time.Millisecond, -1},
		{500, time.Second, 500.75},
		{500, 1500 * time.Millisecond, 500.875},
		{1000, 1600 * time.Millisecond, 1000},
		{900, 1700 * time.Millisecond, -1}, // never backwards
		{1000, 2100 * time.Millisecond, 1000.5},
	}
	for i, s := range steps {
		v, ok := m.next(s.done, start.Add(s.at))
		switch {
		case s.want < 0 && ok:
			t.Errorf("step %d: sent %v, want nothing", i, v)
		case s.want >= 0 && (!ok || v != s.want):
			t.Errorf("step %d: %v %v, want %v", i, v, ok, s.want)
		}
	}
}
