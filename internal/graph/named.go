package graph

import (
	"slices"
	"strings"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// Named returns the notes whose whole note path, title or an alias is
// name, ignoring case, each once with what matched first (its path, else
// its title, else an alias), by path. The name is looked up as written and
// in Unicode normal forms C and D (note.Spellings), so that a title
// committed from macOS is found by a name typed elsewhere.
func (g *Graph) Named(name string) []wiki.NameMatch {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil
	}
	g.mu.RLock()
	defer g.mu.RUnlock()
	forms := note.Spellings(name)
	seen := map[*node]bool{}
	var out []wiki.NameMatch
	add := func(ns []*node, by string) {
		for _, n := range ns {
			if !seen[n] {
				seen[n] = true
				out = append(out, wiki.NameMatch{Path: n.path, Title: n.title, Score: 1, MatchedBy: by})
			}
		}
	}
	v := g.base()
	for _, f := range forms {
		if p, _, err := note.CleanPath(f); err == nil {
			add(v.pathNotes(strings.ToLower(p), false), wiki.MatchedByPath)
		}
	}
	for _, f := range forms {
		add(g.byTitle[strings.ToLower(f)], wiki.MatchedByTitle)
	}
	for _, f := range forms {
		add(g.byAlias[strings.ToLower(f)], wiki.MatchedByAlias)
	}
	slices.SortStableFunc(out, func(a, b wiki.NameMatch) int { return strings.Compare(a.Path, b.Path) })
	return out
}
