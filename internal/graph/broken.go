package graph

import (
	"github.com/wikid/wikid/internal/wiki"
)

// BrokenLinks returns the links of the notes under folder ("" for all) that
// resolve to no note or file, or to a note without the heading they name;
// by note path, then in the order they are written.
func (g *Graph) BrokenLinks(folder string) []wiki.BrokenLink {
	return g.BrokenLinksPage(folder, nil)
}

// BrokenLinksPage is BrokenLinks with the lines links sit on only for
// those that page chooses from the whole list, as [from, to); all of them
// when page is nil.
func (g *Graph) BrokenLinksPage(folder string, page func(all []wiki.BrokenLink) (from, to int)) []wiki.BrokenLink {
	g.mu.RLock()
	defer g.mu.RUnlock()
	var out []wiki.BrokenLink
	type site struct {
		n *node
		l *link
	}
	var sites []site
	for _, n := range g.sortedUnder(folder) {
		for i := range n.links {
			l := &n.links[i]
			if why := l.broken(); why != "" {
				b := wiki.BrokenLink{Path: n.path, LinkSite: l.site(""), Reason: why}
				if l.to != nil {
					b.To = l.to.path
				}
				out = append(out, b)
				sites = append(sites, site{n, l})
			}
		}
	}
	from, to := 0, len(out)
	if page != nil {
		from, to = page(out)
		from, to = max(0, min(from, len(out))), max(0, min(to, len(out)))
	}
	var (
		at   *node
		line func(*link) string
	)
	for i := from; i < to; i++ {
		if s := sites[i]; s.n != at {
			at, line = s.n, g.lines(s.n)
		}
		out[i].Context = line(sites[i].l)
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
