package graph

import (
	"github.com/wikid/wikid/internal/wiki"
)

// Neighbors returns the notes at each distance from 1 to depth from the
// note at notePath, following links in the direction given: each level's
// total, and its first limit notes by path (all of them when limit is 0 or
// less), each with the note one step closer that reached it. The walk goes
// on from every note of a level, listed or not. It returns nil when there
// is no such note; levels past the last reachable note are left out.
func (g *Graph) Neighbors(notePath string, dir wiki.Direction, depth, limit int) []wiki.NeighborLevel {
	g.mu.RLock()
	defer g.mu.RUnlock()
	start := g.lookupNode(notePath)
	if start == nil {
		return nil
	}
	seen := map[*node]bool{start: true}
	frontier := []*node{start}
	var levels []wiki.NeighborLevel
	for d := 1; d <= depth && len(frontier) > 0; d++ {
		var next []*node
		via := make(map[*node]*node)
		for _, u := range frontier {
			for _, t := range adjacent(u, dir) {
				if !seen[t] {
					seen[t] = true
					via[t] = u
					next = append(next, t)
				}
			}
		}
		if len(next) == 0 {
			break
		}
		sortByPath(next)
		lv := wiki.NeighborLevel{Depth: d, Total: len(next)}
		for _, t := range next {
			if limit > 0 && len(lv.Notes) >= limit {
				break
			}
			u := via[t]
			lv.Notes = append(lv.Notes, wiki.Neighbor{Path: t.path, Title: t.title, Via: u.path, Direction: direction(u, t)})
		}
		levels = append(levels, lv)
		frontier = next
	}
	return levels
}

// direction says how t is linked with u: u links to it (out), it links to
// u (in), or both.
func direction(u, t *node) wiki.Direction {
	out, in := u.out.has(t), u.in.has(t)
	switch {
	case out && in:
		return wiki.DirBoth
	case in:
		return wiki.DirIn
	}
	return wiki.DirOut
}

// ShortestPath returns a shortest chain of notes from one note to another
// following links in the direction given (out: as written; in: backwards;
// both: either way), at most maxDepth links long (no limit when 0 or less).
// Among chains of the same length it returns the one that comes first when
// each step goes to the neighbors in path order. It returns nil when either
// note is missing or no chain is short enough.
func (g *Graph) ShortestPath(from, to string, dir wiki.Direction, maxDepth int) []wiki.NoteRef {
	g.mu.RLock()
	defer g.mu.RUnlock()
	src, dst := g.lookupNode(from), g.lookupNode(to)
	if src == nil || dst == nil {
		return nil
	}
	parent := map[*node]*node{src: nil}
	frontier := []*node{src}
	for d := 0; src != dst && (maxDepth <= 0 || d < maxDepth) && len(frontier) > 0; d++ {
		var next []*node
		for _, u := range frontier {
			for _, t := range adjacent(u, dir) {
				if _, ok := parent[t]; ok {
					continue
				}
				parent[t] = u
				if t == dst {
					return chain(parent, dst)
				}
				next = append(next, t)
			}
		}
		frontier = next
	}
	if src == dst {
		return []wiki.NoteRef{src.ref()}
	}
	return nil
}

// chain follows the parents back from the end of a path.
func chain(parent map[*node]*node, end *node) []wiki.NoteRef {
	var out []wiki.NoteRef
	for n := end; n != nil; n = parent[n] {
		out = append(out, n.ref())
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}
