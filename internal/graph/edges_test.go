package graph

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestEdges adds and removes links at random, past the length at which
// edges become a map and back, and checks the counts against a map.
func TestEdges(t *testing.T) {
	ns := make([]*node, 3*mapAt)
	for i := range ns {
		ns[i] = &node{file: fmt.Sprintf("n%02d.md", i)}
	}
	r := rand.New(rand.NewPCG(1, 2))
	var es edges
	want := make(map[*node]int32)
	for step := range 20000 {
		n := ns[r.IntN(len(ns))]
		// grow for a while, then shrink, so the map comes and goes
		switch grow := step/2000%2 == 0; {
		case r.IntN(10) == 0:
			es.unlink(n)
			delete(want, n)
		case grow == (r.IntN(4) > 0):
			es.add(n)
			want[n]++
		default:
			es.remove(n)
			if want[n]--; want[n] <= 0 {
				delete(want, n)
			}
		}
		if es.len() != len(want) {
			t.Fatalf("step %d: %d notes, want %d", step, es.len(), len(want))
		}
		if es.m != nil && es.list != nil || es.m == nil && es.len() > mapAt {
			t.Fatalf("step %d: a list of %d and a map of %d", step, len(es.list), len(es.m))
		}
		for n, c := range es.all() {
			if c != want[n] || !es.has(n) {
				t.Fatalf("step %d: %s has %d links, want %d", step, n.file, c, want[n])
			}
		}
	}
}
