package semantic

import (
	"fmt"
	"slices"
	"strings"
)

// Dump renders everything the index holds, in a canonical order, for the
// tests outside the package: each note with its chunks' lines, hashes and
// the start of their vectors, the texts that wait for one, then the counts
// the index keeps. With settle, it first waits until nothing waits.
func Dump(x *Index, settle bool) string {
	for settle {
		changed := x.Changed()
		x.mu.RLock()
		waiting, failed := len(x.texts), x.lastErr
		x.mu.RUnlock()
		if waiting == 0 {
			break
		}
		if failed != "" {
			return "embedding failed: " + failed
		}
		<-changed
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	notes := slices.Clone(x.notes)
	slices.SortFunc(notes, func(a, b *entry) int { return strings.Compare(a.path, b.path) })
	var b strings.Builder
	for _, e := range notes {
		fmt.Fprintf(&b, "%s unread=%v\n", e.path, e.unread)
		if x.byPath[e.path] != slices.Index(x.notes, e) {
			fmt.Fprintf(&b, "  listed at %d, found at %d\n", x.byPath[e.path], slices.Index(x.notes, e))
		}
		for _, c := range e.chunks {
			fmt.Fprintf(&b, "  %d-%d %x", c.start, c.end, c.hash[:6])
			if c.slot < 0 {
				b.WriteString(" no vector\n")
				continue
			}
			v := x.vs.vector(c.slot)
			fmt.Fprintf(&b, " %.4f\n", v[:min(3, len(v))])
		}
	}
	var texts []string
	for h := range x.texts {
		texts = append(texts, fmt.Sprintf("%x", h[:6]))
	}
	slices.Sort(texts)
	fmt.Fprintf(&b, "texts waiting: %v\n", texts)
	fmt.Fprintf(&b, "notes=%d listed=%d chunks=%d unread=%d waiting=%d static=%d\n",
		len(x.notes), len(x.byPath), x.chunks, x.unread, len(x.waiting), len(x.static))
	return b.String()
}
