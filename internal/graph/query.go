package graph

import (
	"slices"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

// Lookup returns the note at a note path (exact case).
func (g *Graph) Lookup(notePath string) (wiki.NoteRef, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if n := g.lookupNode(notePath); n != nil {
		return n.ref(), true
	}
	return wiki.NoteRef{}, false
}

// lookupNode returns the note at a note path, the first file when several
// files have it.
func (g *Graph) lookupNode(notePath string) *node {
	var best *node
	for _, n := range g.base().pathNotes(strings.ToLower(notePath), false) {
		if n.path == notePath && (best == nil || n.file < best.file) {
			best = n
		}
	}
	return best
}

// ResolveName resolves a name the way a wiki link in a note at the root
// resolves its target.
func (g *Graph) ResolveName(name string) (wiki.NoteRef, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if n := g.resolveName(name); n != nil {
		return n.ref(), true
	}
	return wiki.NoteRef{}, false
}

func (g *Graph) resolveName(name string) *node {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil
	}
	n, _ := g.base().resolve(nameLink(name, ""), nil, "")
	return n
}

// Backlinks returns the other notes that link to the note at notePath, by
// path, each with its links to it in order. When no note has the path, it
// returns the notes whose unresolved links name the path: by the path from
// the root, or by a bare name or partial path it ends with.
func (g *Graph) Backlinks(notePath string) []wiki.Backlink {
	return g.BacklinksLined(notePath, -1)
}

// BacklinksLined is Backlinks with the lines links sit on for the links
// of the first n notes only, every note's when n is negative: the lines
// of a note cost a read of it.
func (g *Graph) BacklinksLined(notePath string, n int) []wiki.Backlink {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if t := g.lookupNode(notePath); t != nil {
		return g.collect(t.in.sorted(), func(l *link) bool { return l.to == t }, n)
	}
	return g.missingBacklinks(notePath, n)
}

// missingBacklinks lists the unresolved links that name notePath, with
// the lines of the first lined notes' (see BacklinksLined).
func (g *Graph) missingBacklinks(notePath string, lined int) []wiki.Backlink {
	keys := suffixes(strings.TrimSpace(notePath))
	match := func(l *link) bool {
		if l.to != nil || (l.mode != modeName && l.mode != modePath) {
			return false
		}
		if l.mode == modePath {
			return l.key() == keys[0]
		}
		return slices.Contains(keys, l.key())
	}
	seen := make(map[*node]int)
	for _, k := range keys {
		for _, s := range g.byKey[k] {
			seen[s]++
		}
	}
	return g.collect(sortedNodes(seen), match, lined)
}

// collect returns the backlinks of the sources with a link that matches,
// with the lines of the first lined backlinks' links (all when lined is
// negative).
func (g *Graph) collect(sources []*node, match func(*link) bool, lined int) []wiki.Backlink {
	var out []wiki.Backlink
	for _, s := range sources {
		var sites []wiki.LinkSite
		line := g.lines(s)
		if lined >= 0 && len(out) >= lined {
			line = func(*link) string { return "" }
		}
		for i := range s.links {
			if match(&s.links[i]) {
				sites = append(sites, s.links[i].site(line(&s.links[i])))
			}
		}
		if len(sites) > 0 {
			out = append(out, wiki.Backlink{Path: s.path, Title: s.title, Links: sites})
		}
	}
	return out
}

// Outlinks returns the links of the note at notePath in order, each with
// what it resolves to; nil when there is no such note.
func (g *Graph) Outlinks(notePath string) []wiki.OutLink {
	g.mu.RLock()
	defer g.mu.RUnlock()
	n := g.lookupNode(notePath)
	if n == nil {
		return nil
	}
	out := make([]wiki.OutLink, 0, len(n.links))
	line := g.lines(n)
	for i := range n.links {
		l := &n.links[i]
		o := wiki.OutLink{LinkSite: l.site(line(l)), Broken: l.broken(), Ambiguous: l.others()}
		switch {
		case l.file != "":
			o.Path = l.file
		case l.to != nil:
			o.Path, o.Title = l.to.path, l.to.title
		}
		out = append(out, o)
	}
	return out
}

// broken says why a link is broken, "" when it is not: no such file for a
// link to an attachment, no such note, "no block ^id" for a block
// reference, no such heading.
func (l *link) broken() string {
	switch {
	case l.file != "" || l.to != nil && l.ok:
		return ""
	case l.to == nil && (l.mode == modeFile || l.mode == modeFilePath):
		return wiki.BrokenNoFile
	case l.to == nil:
		return wiki.BrokenNoNote
	}
	for _, seg := range strings.Split(l.heading(), "#") {
		if seg = strings.TrimSpace(seg); strings.HasPrefix(seg, "^") && !l.to.hasHeading(seg) {
			return "no block " + seg
		}
	}
	return wiki.BrokenNoHeading
}

// LinkedNotes returns the paths of the notes that link to (dir In) or are
// linked from (dir Out; Both for either) the note a name resolves to, or
// with prefix every note whose path starts with name, ignoring case. A name
// that resolves to no note, with dir In, gives the notes whose unresolved
// links name it.
func (g *Graph) LinkedNotes(name string, dir wiki.Direction, prefix bool) []string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	var starts []*node
	if prefix {
		p := strings.ToLower(strings.TrimSpace(name))
		for _, n := range g.notes {
			if strings.HasPrefix(strings.ToLower(n.path), p) {
				starts = append(starts, n)
			}
		}
	} else if n := g.resolveName(name); n != nil {
		starts = append(starts, n)
	} else if dir == wiki.DirIn {
		base, _ := splitNoteExt(strings.Trim(strings.TrimSpace(name), "/"))
		var out []string
		for _, b := range g.missingBacklinks(base, 0) {
			out = append(out, b.Path)
		}
		return out
	}
	set := make(map[*node]int)
	for _, s := range starts {
		for _, t := range adjacent(s, dir) {
			set[t]++
		}
	}
	out := make([]string, 0, len(set))
	for _, n := range sortedNodes(set) {
		out = append(out, n.path)
	}
	return out
}

// sortedNodes returns the keys of a node set by path, then file.
func sortedNodes(set map[*node]int) []*node {
	out := make([]*node, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sortByPath(out)
	return out
}

func sortByPath(ns []*node) {
	slices.SortFunc(ns, func(a, b *node) int {
		if c := strings.Compare(a.path, b.path); c != 0 {
			return c
		}
		return strings.Compare(a.file, b.file)
	})
}

// adjacent returns the other notes next to n in a direction, by path.
func adjacent(n *node, dir wiki.Direction) []*node {
	switch dir {
	case wiki.DirIn:
		return n.in.sorted()
	case wiki.DirOut:
		return n.out.sorted()
	}
	ns := make([]*node, 0, n.in.len()+n.out.len())
	for t := range n.in.all() {
		ns = append(ns, t)
	}
	for t := range n.out.all() {
		ns = append(ns, t)
	}
	sortByPath(ns)
	return slices.Compact(ns)
}
