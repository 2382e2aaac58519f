package history

import (
	"context"
	"slices"

	"github.com/wikid/wikid/internal/wiki"
)

// logEntry is one commit of a file's history and its change there.
type logEntry struct {
	c  int32
	ch *changeRec
}

// Log returns the commits of head's history that changed file, newest
// first: with follow as `git log --follow -- file` lists them, without as
// `git log -- file` does. A file the index never saw has no history. It
// returns an error wrapping wiki.ErrNotFound when head was never synced.
func (x *Index) Log(ctx context.Context, head, file string, follow bool) ([]wiki.Revision, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	h, err := x.lookup(head)
	if err != nil {
		return nil, err
	}
	p, ok := x.pathID[file]
	if !ok {
		return []wiki.Revision{}, nil
	}
	var entries []logEntry
	if follow {
		entries = x.followLog(h, p)
	} else {
		entries = x.simplifiedLog(h, p)
	}
	out := make([]wiki.Revision, len(entries))
	for i, e := range entries {
		out[i] = wiki.Revision{CommitSummary: x.summary(e.c), FileRevision: x.fileRevision(&x.commits[e.c], e.ch)}
	}
	return out, nil
}

// followLog lists the history as `git log --follow` does: every commit
// reachable from head in walk order, merges left out, that changed the
// path; at a commit that added the path as a rename, the older commits are
// looked up under the old path. The caller holds mu.
func (x *Index) followLog(head, p int32) []logEntry {
	w := x.walkFrom(head)
	below := int32(len(w.seq))
	var out []logEntry
	for {
		type cand struct{ rank, c int32 }
		var cands []cand
		for _, c := range x.touches[p] {
			if r := w.rankOf(c); r >= 0 && r < below && !x.commits[c].isMerge() {
				cands = append(cands, cand{r, c})
			}
		}
		slices.SortFunc(cands, func(a, b cand) int { return int(b.rank - a.rank) })
		next := int32(-1)
		for _, cd := range cands {
			ch := x.commits[cd.c].change(x.paths, p)
			out = append(out, logEntry{cd.c, ch})
			if ch.old.isZero() && ch.from >= 0 {
				next, below = ch.from, cd.rank
				break
			}
		}
		if next < 0 {
			return out
		}
		p = next
	}
}

// simplifiedLog lists the history as `git log -- path` does by default: it
// walks from head in walk order, following a merge only into its first
// parent that has the same file (and leaving the merge out), or into all
// parents when none has (and showing the merge); other commits are shown
// when they changed the file. The caller holds mu.
func (x *Index) simplifiedLog(head, p int32) []logEntry {
	touched := make(map[int32]bool, len(x.touches[p]))
	for _, c := range x.touches[p] {
		touched[c] = true
	}
	seen := make([]bool, len(x.commits))
	seen[head] = true
	list := []int32{head}
	var out []logEntry
	for len(list) > 0 {
		c := list[0]
		list = list[1:]
		rec := &x.commits[c]
		var ch *changeRec
		if touched[c] {
			ch = rec.change(x.paths, p)
		}
		follow, shown := rec.parents, ch != nil
		if rec.isMerge() {
			follow, shown = rec.parents[:1], false // same as the first parent
			if ch != nil {
				follow, shown = rec.parents, true
				for j, s := range ch.side {
					if s.blob == ch.new {
						follow, shown = rec.parents[j+1:j+2], false
						break
					}
				}
			}
		}
		for _, f := range follow {
			if !seen[f] {
				seen[f] = true
				list = x.insertByDate(list, f)
			}
		}
		if shown {
			out = append(out, logEntry{c, ch})
		}
	}
	return out
}
