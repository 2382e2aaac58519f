package mcpserver

import (
	"context"
	"strings"
	"sync"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// change is a move of the branch as the subscriptions see it: which notes
// it changed, and, read only when a tag's subscriber asks, the tags those
// notes had before and have after.
type change struct {
	s     *Server
	move  wiki.HeadMove
	paths map[string]bool // the notes changed, by path
	lower map[string]bool // the same, lowercased

	tagsOnce sync.Once
	tags     []string // of the changed notes, before and after, normalized
}

func newChange(s *Server, m wiki.HeadMove) *change {
	c := &change{s: s, move: m, paths: map[string]bool{}, lower: map[string]bool{}}
	for _, n := range m.Notes {
		c.paths[n.Path] = true
		c.lower[strings.ToLower(n.Path)] = true
	}
	return c
}

// affects reports whether the change changes what w watches.
func (c *change) affects(w tool.Watch) bool {
	switch w.Kind {
	case tool.WatchNote:
		if w.Exact {
			return c.paths[w.Key]
		}
		return c.lower[strings.ToLower(w.Key)]
	case tool.WatchAny:
		return true
	case tool.WatchTag:
		want := note.NewTag(w.Key).Norm
		for _, t := range c.changedTags() {
			if t == want || strings.HasPrefix(t, want+"/") {
				return true
			}
		}
	}
	return false
}

// changedTags returns the tags the changed notes had before the change or
// have after it: a note that gains, keeps or loses a tag changes the
// tag's list.
func (c *change) changedTags() []string {
	c.tagsOnce.Do(func() {
		seen := map[string]bool{}
		for _, n := range c.move.Notes {
			for _, rev := range []string{c.move.From, c.move.To} {
				if rev == "" || rev == c.move.From && n.Change == wiki.ChangeAdded || rev == c.move.To && n.Change == wiki.ChangeDeleted {
					continue
				}
				r, err := c.s.w.Read(context.Background(), wiki.ReadRequest{Path: n.Path, MetadataOnly: true, Version: rev})
				if err != nil {
					c.s.log.Debug("tags of a changed note", "path", n.Path, "commit", rev, "err", err)
					continue
				}
				for _, t := range r.Tags {
					if norm := note.NewTag(t).Norm; !seen[norm] {
						seen[norm] = true
						c.tags = append(c.tags, norm)
					}
				}
			}
		}
	})
	return c.tags
}
