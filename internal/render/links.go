package render

import (
	"fmt"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

// Links renders a note's links: its backlinks with their lines, its
// outgoing links, and the notes further away.
func Links(r *wiki.LinksResult) string {
	var b Builder
	if !r.Exists {
		b.Line("Note %s does not exist.", r.Path)
		if r.IncomingTotal == 0 {
			b.Line("No notes link to this path.")
			return b.String()
		}
		b.Line("")
		b.Line("However, %s to this path:", Plural(r.IncomingTotal, "note")+" "+verb(r.IncomingTotal, "has links", "have links"))
	} else {
		b.Line("Links of %s (%s)", r.Title, r.Path)
		if len(r.Incoming) > 0 || r.IncomingTotal > 0 {
			b.Line("")
			b.Line("Backlinks from %s:", Plural(r.IncomingTotal, "note"))
		} else if len(r.Outgoing) == 0 && r.OutgoingTotal == 0 && len(r.Neighbors) == 0 {
			b.Line("No notes link to %s, and it links to none.", r.Path)
		}
	}
	for _, bl := range r.Incoming {
		lines := make([]string, len(bl.Links))
		for i, l := range bl.Links {
			lines[i] = fmt.Sprint(l.Line)
		}
		b.Line("- **%s** (%s)", bl.Title, bl.Path)
		b.Line("  %s - %s %s", Plural(len(bl.Links), "link"), verb(len(bl.Links), "line", "lines"), strings.Join(lines, ", "))
		for _, l := range bl.Links {
			b.Line("  %d: %s", l.Line, l.Context)
		}
	}
	if more := r.IncomingTotal - len(r.Incoming); more > 0 {
		b.Line("- and %d more (raise {limit})", more)
	}
	if r.Exists && r.OutgoingTotal > 0 {
		b.Line("")
		b.Line("Outgoing links (%d):", r.OutgoingTotal)
		for _, l := range r.Outgoing {
			target := l.Target
			if l.Heading != "" {
				target += "#" + l.Heading
			}
			switch {
			case l.Broken != "":
				b.Line("- line %d: %s → broken: %s", l.Line, target, l.Broken)
			case len(l.Ambiguous) > 0:
				b.Line("- line %d: %s → %s (%s; the name also names %s)", l.Line, target, l.Title, l.Path, strings.Join(l.Ambiguous, ", "))
			case l.Title != "":
				b.Line("- line %d: %s → %s (%s)", l.Line, target, l.Title, l.Path)
			default:
				b.Line("- line %d: %s → %s", l.Line, target, l.Path)
			}
		}
		if more := r.OutgoingTotal - len(r.Outgoing); more > 0 {
			b.Line("- and %d more (raise {limit})", more)
		}
	}
	for _, lv := range r.Neighbors {
		if lv.Depth == 1 && !hasContent(lv) {
			continue
		}
		b.Line("")
		b.Line("%s %s away:", Plural(lv.Total, "note"), Plural(lv.Depth, "link"))
		for _, n := range lv.Notes {
			b.Line("- %s (%s), via %s (%s)", n.Title, n.Path, n.Via, n.Direction)
			if n.Content != "" {
				b.Line("  %s", oneLine(n.Content))
			}
		}
		if more := lv.Total - len(lv.Notes); more > 0 {
			b.Line("- and %d more (raise {limit})", more)
		}
	}
	return b.String()
}

// Hubs renders the notes ranked by a link metric.
func Hubs(res *wiki.HubsResult) string {
	var b Builder
	if len(res.Hubs) == 0 {
		b.Line("No notes.")
		return b.String()
	}
	b.Line("Top notes by %s:", res.Metric)
	for i, h := range res.Hubs {
		score := fmt.Sprintf("%g", h.Score)
		if res.Metric == wiki.HubPageRank {
			score = fmt.Sprintf("%.4f", h.Score)
		}
		b.Line("%d. %s (%s) — %s (in %d, out %d)", i+1, h.Title, h.Path, score, h.InDegree, h.OutDegree)
	}
	return b.String()
}

// BrokenLinks renders a page of broken links, by note and line, and with
// orphans the notes no other note links to.
func BrokenLinks(res *wiki.BrokenLinksResult, orphans bool) string {
	var b Builder
	if res.Total == 0 {
		b.Line("No broken links.")
	} else {
		b.Line("%s (showing %d):", Plural(res.Total, "broken link"), len(res.Links))
		for _, l := range res.Links {
			target, reason := BrokenTarget(l)
			b.Line("- %s line %d: %s — %s", l.Path, l.Line, target, reason)
			b.Line("  %s", l.Context)
		}
		if res.NextCursor != "" {
			b.Line("More: pass {cursor} %s.", res.NextCursor)
		}
	}
	if orphans {
		b.Line("")
		if res.OrphansTotal == 0 {
			b.Line("No orphans: every note is linked from another one.")
		} else {
			b.Line("%s that no other note links to:", Plural(res.OrphansTotal, "orphan"))
			for _, o := range res.Orphans {
				b.Line("- %s (%s)", o.Title, o.Path)
			}
			if more := res.OrphansTotal - len(res.Orphans); more > 0 {
				b.Line("- and %d more", more)
			}
		}
	}
	return b.String()
}

// BrokenTarget returns a broken link's target as written, with its
// heading, and why it is broken, naming the note it found when only the
// heading is missing there.
func BrokenTarget(l wiki.BrokenLink) (target, reason string) {
	target, reason = l.Target, l.Reason
	if l.Heading != "" {
		target += "#" + l.Heading
	}
	if l.To != "" {
		reason += " in " + l.To
	}
	return target, reason
}
