package graph

// indexAt is how many notes a note's edges list before they are indexed.
const indexAt = 16

// edges counts the links between a note and each note it is linked with,
// in no order. Most notes are linked with few others: they keep a short
// list, searched in turn, and an index by note only while the list is
// longer than indexAt.
type edges struct {
	list  []edge
	index map[*node]int // position in list
}

// edge counts the links between two notes.
type edge struct {
	n     *node
	links int32
}

// len returns the number of notes linked.
func (es *edges) len() int { return len(es.list) }

// has reports whether n is linked.
func (es *edges) has(n *node) bool { return es.find(n) >= 0 }

// find returns the position of n in the list, -1 when it is not there.
func (es *edges) find(n *node) int {
	if es.index != nil {
		if i, ok := es.index[n]; ok {
			return i
		}
		return -1
	}
	for i := range es.list {
		if es.list[i].n == n {
			return i
		}
	}
	return -1
}

// add counts one more link with n.
func (es *edges) add(n *node) {
	if i := es.find(n); i >= 0 {
		es.list[i].links++
		return
	}
	es.list = append(es.list, edge{n: n, links: 1})
	switch {
	case es.index != nil:
		es.index[n] = len(es.list) - 1
	case len(es.list) > indexAt:
		es.index = make(map[*node]int, len(es.list))
		for i, e := range es.list {
			es.index[e.n] = i
		}
	}
}

// remove counts one link less with n, and drops n with its last link.
func (es *edges) remove(n *node) {
	if i := es.find(n); i >= 0 {
		if es.list[i].links--; es.list[i].links <= 0 {
			es.drop(i)
		}
	}
}

// drop removes the entry at position i, moving the last one into its
// place.
func (es *edges) drop(i int) {
	last := len(es.list) - 1
	gone := es.list[i].n
	es.list[i] = es.list[last]
	es.list[last] = edge{}
	es.list = es.list[:last]
	switch {
	case len(es.list) <= indexAt:
		es.index = nil
	default:
		delete(es.index, gone)
		if i < last {
			es.index[es.list[i].n] = i
		}
	}
	if last == 0 {
		es.list = nil
	}
}

// unlink drops n whatever its count.
func (es *edges) unlink(n *node) {
	if i := es.find(n); i >= 0 {
		es.drop(i)
	}
}

// sorted returns the notes linked, by path.
func (es *edges) sorted() []*node {
	out := make([]*node, len(es.list))
	for i, e := range es.list {
		out[i] = e.n
	}
	sortByPath(out)
	return out
}
