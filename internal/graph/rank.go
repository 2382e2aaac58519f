package graph

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/wikid/wikid/internal/wiki"
)

// PageRank settings.
const (
	damping = 0.85
	// rankTolerance ends the iteration once no score moves by more than
	// this in total (L1 distance between two rounds).
	rankTolerance = 1e-10
	maxRankRounds = 200
)

// rankCache holds the PageRank of the graph at one generation.
type rankCache struct {
	mu     sync.Mutex
	gen    uint64
	scores map[*node]float64
	rounds int
}

// Hubs returns the notes under folder ("" for all) with the highest score
// for metric, best first, ties by path; at most limit of them (all when
// limit is 0 or less). An unknown metric counts as in_degree.
func (g *Graph) Hubs(metric wiki.HubMetric, folder string, limit int) []wiki.Hub {
	g.mu.RLock()
	defer g.mu.RUnlock()
	var ranks map[*node]float64
	if metric == wiki.HubPageRank {
		ranks, _ = g.pageRank()
	}
	hubs := make([]wiki.Hub, 0, len(g.notes))
	for _, n := range g.notes {
		if !under(n.path, folder) {
			continue
		}
		h := wiki.Hub{Path: n.path, Title: n.title, InDegree: n.in.len(), OutDegree: n.out.len()}
		switch metric {
		case wiki.HubPageRank:
			h.Score = ranks[n]
		case wiki.HubOutDegree:
			h.Score = float64(h.OutDegree)
		default:
			h.Score = float64(h.InDegree)
		}
		hubs = append(hubs, h)
	}
	slices.SortFunc(hubs, func(a, b wiki.Hub) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	if limit > 0 && len(hubs) > limit {
		hubs = hubs[:limit]
	}
	return hubs
}

// pageRank returns every note's PageRank and the rounds it took, computed
// once per generation of the graph. The caller holds at least the read
// lock.
//
// It is the power iteration over the edges between notes: each round a
// note keeps (1-d)/N and receives d times the score of each note linking
// to it divided by that note's out-degree; the score of notes without
// links is spread over all notes. Notes are numbered by file and edges
// visited in that order, so the same graph always gives the same scores.
func (g *Graph) pageRank() (map[*node]float64, int) {
	c := &g.rank
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.scores != nil && c.gen == g.gen {
		return c.scores, c.rounds
	}
	nodes := make([]*node, 0, len(g.notes))
	for _, n := range g.notes {
		nodes = append(nodes, n)
	}
	slices.SortFunc(nodes, func(a, b *node) int { return strings.Compare(a.file, b.file) })
	index := make(map[*node]int32, len(nodes))
	for i, n := range nodes {
		index[n] = int32(i)
	}
	// outs[i] are the targets of note i, in order.
	outs := make([][]int32, len(nodes))
	for i, n := range nodes {
		ts := make([]int32, 0, n.out.len())
		for t := range n.out.all() {
			ts = append(ts, index[t])
		}
		slices.Sort(ts)
		outs[i] = ts
	}
	scores, rounds := iterate(outs)
	c.scores = make(map[*node]float64, len(nodes))
	for i, n := range nodes {
		c.scores[n] = scores[i]
	}
	c.gen, c.rounds = g.gen, rounds
	return c.scores, rounds
}

// iterate runs the power iteration over the adjacency lists until it
// converges or maxRankRounds pass.
func iterate(outs [][]int32) ([]float64, int) {
	n := len(outs)
	if n == 0 {
		return nil, 0
	}
	rank := make([]float64, n)
	next := make([]float64, n)
	for i := range rank {
		rank[i] = 1 / float64(n)
	}
	rounds := 0
	for rounds < maxRankRounds {
		rounds++
		dangling := 0.0
		for i, ts := range outs {
			if len(ts) == 0 {
				dangling += rank[i]
			}
		}
		base := (1-damping)/float64(n) + damping*dangling/float64(n)
		for i := range next {
			next[i] = base
		}
		for i, ts := range outs {
			if len(ts) == 0 {
				continue
			}
			share := damping * rank[i] / float64(len(ts))
			for _, t := range ts {
				next[t] += share
			}
		}
		diff := 0.0
		for i := range rank {
			diff += math.Abs(next[i] - rank[i])
		}
		rank, next = next, rank
		if diff < rankTolerance {
			break
		}
	}
	return rank, rounds
}
