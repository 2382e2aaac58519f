package graph

import (
	"github.com/wikid/wikid/internal/wiki"
)

// BrokenLinks returns the links of the notes under folder ("" for all) that
// resolve to no note or file, or to a note without the heading they name;
// by note path, then in the order they are written.
func (g *Graph) BrokenLinks(folder string) []wiki.BrokenLink {
	g.mu.RLock()
	defer g.mu.RUnlock()
	var out []wiki.BrokenLink
	for _, n := range g.sortedUnder(folder) {
		line := g.lines(n)
		for i := range n.links {
			l := &n.links[i]
			if why := l.broken(); why != "" {
				b := wiki.BrokenLink{Path: n.path, LinkSite: l.site(line(l)), Reason: why}
				if l.to != nil {
					b.To = l.to.path
				}
				out = append(out, b)
			}
		}
	}
	return out
}

// AmbiguousLinks returns the links of the notes under folder ("" for all)
// whose bare name names several notes or files, with the one chosen; by
// note path, then in the order they are written.
func (g *Graph) AmbiguousLinks(folder string) []wiki.AmbiguousLink {
	g.mu.RLock()
	defer g.mu.RUnlock()
	var out []wiki.AmbiguousLink
	for _, n := range g.sortedUnder(folder) {
		line := g.lines(n)
		for i := range n.links {
			l := &n.links[i]
			if len(l.others()) == 0 {
				continue
			}
			a := wiki.AmbiguousLink{Path: n.path, LinkSite: l.site(line(l)), To: l.file, Others: l.others()}
			if l.to != nil {
				a.To = l.to.path
			}
			out = append(out, a)
		}
	}
	return out
}

// Orphans returns the notes under folder ("" for all) that no other note
// links to, by path.
func (g *Graph) Orphans(folder string) []wiki.NoteRef {
	g.mu.RLock()
	defer g.mu.RUnlock()
	var out []wiki.NoteRef
	for _, n := range g.sortedUnder(folder) {
		if n.in.len() == 0 {
			out = append(out, n.ref())
		}
	}
	return out
}

// sortedUnder returns the notes under folder by path.
func (g *Graph) sortedUnder(folder string) []*node {
	var ns []*node
	for _, n := range g.notes {
		if under(n.path, folder) {
			ns = append(ns, n)
		}
	}
	sortByPath(ns)
	return ns
}
