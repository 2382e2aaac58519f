package graph

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/wikid/wikid/internal/wiki"
)

func TestGraph_Hubs(t *testing.T) {
	g := fixture(t)
	tests := []struct {
		metric wiki.HubMetric
		folder string
		limit  int
		want   []string
		scores []float64
	}{
		{wiki.HubInDegree, "", 5,
			[]string{"projects/alpha/overview", "people/alice", "people/carol-nguyen", "projects/alpha/plan", "people/bob"},
			[]float64{12, 10, 9, 9, 7}},
		{wiki.HubOutDegree, "", 3,
			[]string{"index", "projects/alpha/overview", "reference/links-edge-cases"},
			[]float64{13, 8, 6}},
		{wiki.HubInDegree, "projects/beta", 0,
			[]string{"projects/beta/overview", "projects/beta/roadmap", "projects/beta/risks"},
			[]float64{5, 3, 1}},
	}
	for _, tt := range tests {
		t.Run(string(tt.metric)+" "+tt.folder, func(t *testing.T) {
			var got []string
			var scores []float64
			for _, h := range g.Hubs(tt.metric, tt.folder, tt.limit) {
				got = append(got, h.Path)
				scores = append(scores, h.Score)
			}
			if !reflect.DeepEqual(got, tt.want) || !reflect.DeepEqual(scores, tt.scores) {
				t.Errorf("Hubs = %q %v, want %q %v", got, scores, tt.want, tt.scores)
			}
		})
	}
}

// naiveRank is PageRank computed the textbook way from the outgoing links
// the graph reports, independently of rank.go.
func naiveRank(g *Graph) map[string]float64 {
	var paths []string
	for _, n := range g.sortedUnder("") {
		paths = append(paths, n.path)
	}
	out := make(map[string][]string)
	for _, p := range paths {
		for _, l := range g.Outlinks(p) {
			if l.Title != "" && l.Path != p && !slices.Contains(out[p], l.Path) {
				out[p] = append(out[p], l.Path)
			}
		}
	}
	n := float64(len(paths))
	rank := make(map[string]float64)
	for _, p := range paths {
		rank[p] = 1 / n
	}
	for range 1000 {
		next := make(map[string]float64)
		dangling := 0.0
		for _, p := range paths {
			if len(out[p]) == 0 {
				dangling += rank[p]
			}
		}
		for _, p := range paths {
			next[p] += 0.15/n + 0.85*dangling/n
			for _, q := range out[p] {
				next[q] += 0.85 * rank[p] / float64(len(out[p]))
			}
		}
		rank = next
	}
	return rank
}

func TestGraph_PageRank(t *testing.T) {
	t.Run("two notes", func(t *testing.T) {
		// a links to b, b links to nothing: b's score is spread evenly, so
		// a = 0.075 + 0.425 b and a + b = 1.
		g := build(t, []File{fileOf("a.md", []byte("[[b]]")), fileOf("b.md", nil)})
		hubs := g.Hubs(wiki.HubPageRank, "", 0)
		want := map[string]float64{"a": 0.5 / 1.425, "b": 1 - 0.5/1.425}
		for _, h := range hubs {
			if math.Abs(h.Score-want[h.Path]) > 1e-9 {
				t.Errorf("PageRank(%s) = %.12f, want %.12f", h.Path, h.Score, want[h.Path])
			}
		}
		if hubs[0].Path != "b" {
			t.Errorf("top hub = %s, want b", hubs[0].Path)
		}
	})
	t.Run("fixture against the textbook", func(t *testing.T) {
		g := fixture(t)
		want := naiveRank(g)
		hubs := g.Hubs(wiki.HubPageRank, "", 0)
		if len(hubs) != len(want) {
			t.Fatalf("%d hubs for %d notes", len(hubs), len(want))
		}
		sum := 0.0
		for i, h := range hubs {
			sum += h.Score
			if math.Abs(h.Score-want[h.Path]) > 1e-9 {
				t.Errorf("PageRank(%s) = %.12f, want %.12f", h.Path, h.Score, want[h.Path])
			}
			if i > 0 && (h.Score > hubs[i-1].Score || h.Score == hubs[i-1].Score && h.Path < hubs[i-1].Path) {
				t.Errorf("hubs out of order at %d: %s after %s", i, h.Path, hubs[i-1].Path)
			}
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("scores sum to %.12f, want 1", sum)
		}
		_, rounds := g.pageRank()
		if rounds >= maxRankRounds {
			t.Errorf("PageRank did not converge in %d rounds", rounds)
		}
	})
	t.Run("deterministic", func(t *testing.T) {
		files := readDir(t, fixtureDir(t, "basic"))
		a := build(t, files)
		slices.Reverse(files)
		b := build(t, files)
		if ha, hb := a.Hubs(wiki.HubPageRank, "", 0), b.Hubs(wiki.HubPageRank, "", 0); !reflect.DeepEqual(ha, hb) {
			t.Errorf("PageRank differs with the order files were added")
		}
	})
}
