package graph

import "iter"

// mapAt is how many notes a note's edges list before they become a map.
const mapAt = 16

// edges counts the links between a note and each note it is linked with,
// in no order. Most notes are linked with few others: they keep a short
// list, searched in turn, and only a note linked with more than mapAt
// others a map.
type edges struct {
	list []edge
	m    map[*node]int32 // the counts by note once there are many, list then nil
}

// edge counts the links between two notes.
type edge struct {
	n     *node
	links int32
}

// len returns the number of notes linked.
func (es *edges) len() int {
	if es.m != nil {
		return len(es.m)
	}
	return len(es.list)
}

// has reports whether n is linked.
func (es *edges) has(n *node) bool {
	if es.m != nil {
		_, ok := es.m[n]
		return ok
	}
	return es.find(n) >= 0
}

// find returns the position of n in the list, -1 when it is not there.
func (es *edges) find(n *node) int {
	for i := range es.list {
		if es.list[i].n == n {
			return i
		}
	}
	return -1
}

// add counts one more link with n.
func (es *edges) add(n *node) {
	switch i := es.find(n); {
	case es.m != nil:
		es.m[n]++
	case i >= 0:
		es.list[i].links++
	case len(es.list) < mapAt:
		es.list = append(es.list, edge{n: n, links: 1})
	default:
		es.m = make(map[*node]int32, 2*mapAt)
		for _, e := range es.list {
			es.m[e.n] = e.links
		}
		es.m[n] = 1
		es.list = nil
	}
}

// remove counts one link less with n, and drops n with its last link.
func (es *edges) remove(n *node) {
	if es.m != nil {
		if es.m[n]--; es.m[n] <= 0 {
			es.unlink(n)
		}
		return
	}
	if i := es.find(n); i >= 0 {
		if es.list[i].links--; es.list[i].links <= 0 {
			es.drop(i)
		}
	}
}

// unlink drops n whatever its count.
func (es *edges) unlink(n *node) {
	if es.m != nil {
		if delete(es.m, n); len(es.m) == 0 {
			es.m = nil
		}
		return
	}
	if i := es.find(n); i >= 0 {
		es.drop(i)
	}
}

// drop removes the list's entry at position i, moving the last one into
// its place.
func (es *edges) drop(i int) {
	last := len(es.list) - 1
	es.list[i] = es.list[last]
	es.list[last] = edge{}
	if es.list = es.list[:last]; last == 0 {
		es.list = nil
	}
}

// all yields the notes linked with their counts.
func (es *edges) all() iter.Seq2[*node, int32] {
	return func(yield func(*node, int32) bool) {
		if es.m != nil {
			for n, c := range es.m {
				if !yield(n, c) {
					return
				}
			}
			return
		}
		for _, e := range es.list {
			if !yield(e.n, e.links) {
				return
			}
		}
	}
}

// sorted returns the notes linked, by path.
func (es *edges) sorted() []*node {
	out := make([]*node, 0, es.len())
	for n := range es.all() {
		out = append(out, n)
	}
	sortByPath(out)
	return out
}
