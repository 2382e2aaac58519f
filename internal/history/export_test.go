package history

import (
	"fmt"
	"sort"
	"strings"
)

// Dump renders everything the index holds of the commits HEAD reaches, in
// a canonical order (commits by id, their changes by path), for the tests
// outside the package.
func Dump(x *Index) string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	lines := make([]string, 0, len(x.commits))
	for _, c := range x.commits {
		var b strings.Builder
		fmt.Fprintf(&b, "commit %s parents", c.id)
		for _, p := range c.parents {
			fmt.Fprintf(&b, " %s", x.commits[p].id)
		}
		fmt.Fprintf(&b, "\n  %+v %+v %q %q %q missing=%v unknown=%v\n", c.author, c.committer, c.subject, c.tool, c.client, c.missing, c.changesUnknown)
		for _, ch := range c.changes {
			from := ""
			if ch.from >= 0 {
				from = x.paths[ch.from]
			}
			fmt.Fprintf(&b, "  %s %s %s from=%q %d %d %d %d flags=%d", x.paths[ch.path], ch.old, ch.new, from, ch.add, ch.del, ch.radd, ch.rdel, ch.flags)
			for _, s := range ch.side {
				sideFrom := ""
				if s.from >= 0 {
					sideFrom = x.paths[s.from]
				}
				fmt.Fprintf(&b, " side=%s,%q,%s", s.blob, sideFrom, s.fromBlob)
			}
			b.WriteByte('\n')
		}
		lines = append(lines, b.String())
	}
	sort.Strings(lines)
	return fmt.Sprintf("head %s tips %d\n%s", x.head, x.tips, strings.Join(lines, ""))
}
