package graph

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestEdges adds and removes links at random, past the length at which
// edges are indexed and back, and checks the counts against a map.
func TestEdges(t *testing.T) {
	ns := make([]*node, 3*indexAt)
	for i := range ns {
		ns[i] = &node{file: fmt.Sprintf("n%02d.md", i)}
	}
	r := rand.New(rand.NewPCG(1, 2))
	var es edges
	want := make(map[*node]int32)
	for step := range 20000 {
		n := ns[r.IntN(len(ns))]
		// grow for a while, then shrink, so the index comes and goes
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
		if (es.index != nil) != (es.len() > indexAt) {
			t.Fatalf("step %d: index %v with %d notes", step, es.index != nil, es.len())
		}
		for i, e := range es.list {
			if e.links != want[e.n] || es.find(e.n) != i {
				t.Fatalf("step %d: %s has %d links at %d, want %d at %d", step, e.n.file, e.links, es.find(e.n), want[e.n], i)
			}
		}
	}
}
