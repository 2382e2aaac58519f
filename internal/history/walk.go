package history

import "sync"

// walk is the commits reachable from one head in the order `git log`
// lists them.
type walk struct {
	head int32
	// seq is the commits oldest first: seq[len(seq)-1] is the head, the
	// first that git log lists.
	seq []int32
	// rank is, per commit index, the commit's position in seq, or -1 when
	// the head does not reach it. Commits added after the walk was made
	// are past its end and not reachable.
	rank []int32
}

// rankOf returns the commit's position in the walk, -1 if it is not in it.
func (w *walk) rankOf(c int32) int32 {
	if int(c) >= len(w.rank) {
		return -1
	}
	return w.rank[c]
}

// walkCache keeps the walks of the last two heads asked for.
type walkCache struct {
	mu         sync.Mutex
	last, prev *walk
}

func (wc *walkCache) clear() {
	wc.mu.Lock()
	wc.last, wc.prev = nil, nil
	wc.mu.Unlock()
}

// walkFrom returns the walk from head, from the cache when it can. The
// caller holds mu.
func (x *Index) walkFrom(head int32) *walk {
	wc := &x.walks
	wc.mu.Lock()
	defer wc.mu.Unlock()
	for _, w := range []*walk{wc.last, wc.prev} {
		if w != nil && w.head == head {
			return w
		}
	}
	var w *walk
	if ps := x.commits[head].parents; len(ps) == 1 {
		for _, pw := range []*walk{wc.last, wc.prev} {
			if pw != nil && pw.head == ps[0] && pw.rankOf(head) < 0 {
				w = x.extendWalk(pw, head)
				break
			}
		}
	}
	if w == nil {
		w = x.newWalk(head)
	}
	wc.prev, wc.last = wc.last, w
	return w
}

// extendWalk returns the walk of a commit whose only parent is pw's head:
// git visits the commit, then exactly pw's walk.
func (x *Index) extendWalk(pw *walk, head int32) *walk {
	w := &walk{head: head, seq: make([]int32, len(pw.seq), len(pw.seq)+1), rank: make([]int32, len(x.commits))}
	copy(w.seq, pw.seq)
	w.seq = append(w.seq, head)
	n := copy(w.rank, pw.rank)
	for i := n; i < len(w.rank); i++ {
		w.rank[i] = -1
	}
	w.rank[head] = int32(len(w.seq) - 1)
	return w
}

// newWalk walks from head as git's revision walk does: it takes the newest
// commit of a list ordered by committer date (first in, first out among
// equal dates) and inserts its parents not seen before.
func (x *Index) newWalk(head int32) *walk {
	rank := make([]int32, len(x.commits))
	for i := range rank {
		rank[i] = -1
	}
	seen := make([]bool, len(x.commits))
	seen[head] = true
	var out []int32
	list := []int32{head}
	for len(list) > 0 {
		c := list[0]
		list = list[1:]
		out = append(out, c)
		for _, p := range x.commits[c].parents {
			if seen[p] {
				continue
			}
			seen[p] = true
			list = x.insertByDate(list, p)
		}
	}
	seq := make([]int32, len(out))
	for i, c := range out {
		seq[len(out)-1-i] = c
	}
	for i, c := range seq {
		rank[c] = int32(i)
	}
	return &walk{head: head, seq: seq, rank: rank}
}

// insertByDate inserts c into a list ordered by committer date, newest
// first, after the commits of the same date (git's
// commit_list_insert_by_date).
func (x *Index) insertByDate(list []int32, c int32) []int32 {
	when := x.commits[c].committer.when
	i := 0
	for i < len(list) && x.commits[list[i]].committer.when >= when {
		i++
	}
	list = append(list, 0)
	copy(list[i+1:], list[i:])
	list[i] = c
	return list
}
