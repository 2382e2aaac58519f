package history

import (
	"path"
	"slices"
)

// candidate is a deleted file (a rename source) or an added file (a rename
// destination) of one diff.
type candidate struct {
	path    string
	blob    oid
	content []byte
	sp      []span // computed on first use
	// missing marks a blob the repository lacks: it pairs by blob id
	// only.
	missing bool
}

func (c *candidate) spans() []span {
	if c.sp == nil {
		c.sp = spans(c.content)
	}
	return c.sp
}

// maxRenamePairs bounds the inexact search, like git's diff.renameLimit of
// 1000 sources times 1000 destinations.
const maxRenamePairs = 1000 * 1000

// candidatesPerDst is how many sources git keeps per destination before
// it assigns renames (NUM_CANDIDATE_PER_DST).
const candidatesPerDst = 4

// pairRenames finds renames between sources (deleted files) and
// destinations (added files), both sorted by path, the way git's
// diffcore_rename does without copy detection: destinations with the same
// content as a source first (preferring a source with the same base name),
// then a source and a destination whose base names are each unique among
// the rest and whose contents are at least 75% similar, then the most
// similar pairs of at least 50%, best first. A candidate whose content is
// missing pairs only by equal blob ids. Each source is used once. It
// returns the source index of every destination that is a rename, -1 for
// the others.
func pairRenames(srcs, dsts []*candidate) []int {
	out := make([]int, len(dsts))
	for i := range out {
		out[i] = -1
	}
	used := make([]bool, len(srcs))
	// Equal content.
	for di, d := range dsts {
		best, bestScore := -1, -1
		for si, s := range srcs {
			if used[si] || s.blob != d.blob {
				continue
			}
			score := 1
			if path.Base(s.path) == path.Base(d.path) {
				score++
			}
			if score > bestScore {
				best, bestScore = si, score
			}
		}
		if best >= 0 {
			out[di], used[best] = best, true
		}
	}
	// Unique base names.
	srcBase := uniqueBases(srcs, used)
	dstDone := make([]bool, len(dsts))
	for di := range dsts {
		dstDone[di] = out[di] >= 0
	}
	dstBase := uniqueBases(dsts, dstDone)
	for si, s := range srcs {
		if used[si] {
			continue
		}
		base := path.Base(s.path)
		di, ok := dstBase[base]
		if !ok || di < 0 || srcBase[base] != si || out[di] >= 0 {
			continue
		}
		if similarity(s, dsts[di], minBasenameScore) >= minBasenameScore {
			out[di], used[si] = si, true
		}
	}
	// The most similar pairs.
	var left []int
	for di := range dsts {
		if out[di] < 0 {
			left = append(left, di)
		}
	}
	if len(left) == 0 || len(left)*len(srcs) > maxRenamePairs {
		return out
	}
	type score struct {
		dst, src, score int
		sameBase        bool
	}
	var mx []score
	for _, di := range left {
		var best []score // at most candidatesPerDst, git's record_if_better
		for si, s := range srcs {
			if used[si] {
				continue
			}
			sc := similarity(s, dsts[di], minScore)
			if sc < minScore {
				continue
			}
			o := score{di, si, sc, path.Base(s.path) == path.Base(dsts[di].path)}
			if len(best) < candidatesPerDst {
				best = append(best, o)
				continue
			}
			worst := 0
			for k := 1; k < len(best); k++ {
				if better(best[worst].score, best[worst].sameBase, best[k].score, best[k].sameBase) {
					worst = k
				}
			}
			if better(o.score, o.sameBase, best[worst].score, best[worst].sameBase) {
				best[worst] = o
			}
		}
		mx = append(mx, best...)
	}
	slices.SortStableFunc(mx, func(a, b score) int {
		if a.score != b.score {
			return b.score - a.score
		}
		return boolInt(b.sameBase) - boolInt(a.sameBase)
	})
	for _, m := range mx {
		if out[m.dst] >= 0 || used[m.src] {
			continue
		}
		out[m.dst], used[m.src] = m.src, true
	}
	return out
}

// better reports whether score a ranks above score b: higher, or equal
// with the same base name where b has not.
func better(a int, aBase bool, b int, bBase bool) bool {
	if a != b {
		return a > b
	}
	return aBase && !bBase
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// uniqueBases maps each base name among the candidates not done to the
// index of the only candidate with it, or -1 when several have it.
func uniqueBases(cs []*candidate, done []bool) map[string]int {
	m := map[string]int{}
	for i, c := range cs {
		if done[i] {
			continue
		}
		base := path.Base(c.path)
		if _, ok := m[base]; ok {
			m[base] = -1
		} else {
			m[base] = i
		}
	}
	return m
}
