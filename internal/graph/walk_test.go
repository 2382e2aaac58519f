package graph

import (
	"reflect"
	"testing"

	"github.com/wikid/wikid/internal/wiki"
)

func TestGraph_Neighbors(t *testing.T) {
	g := fixture(t)
	type note struct {
		path, via string
		dir       wiki.Direction
	}
	type level struct {
		total int
		notes []note
	}
	tests := []struct {
		name         string
		path         string
		dir          wiki.Direction
		depth, limit int
		want         []level
	}{
		{"out depth 2, limit 3", "projects/beta/risks", wiki.DirOut, 2, 3, []level{
			{3, []note{
				{"people/carol-nguyen", "projects/beta/risks", wiki.DirOut},
				{"projects/alpha/overview", "projects/beta/risks", wiki.DirOut},
				{"projects/beta/overview", "projects/beta/risks", wiki.DirBoth},
			}},
			{8, []note{
				{"areas/finance/budget", "projects/alpha/overview", wiki.DirBoth},
				{"people/alice", "projects/alpha/overview", wiki.DirBoth},
				{"people/bob", "projects/alpha/overview", wiki.DirBoth},
			}},
		}},
		{"in", "projects/beta/risks", wiki.DirIn, 1, 0, []level{
			{1, []note{{"projects/beta/overview", "projects/beta/risks", wiki.DirBoth}}},
		}},
		{"in stops where nothing links", "areas/health/sleep", wiki.DirIn, 5, 0, []level{
			{1, []note{{"areas/health/running", "areas/health/sleep", wiki.DirIn}}},
			{4, []note{
				{"areas/finance/budget", "areas/health/running", wiki.DirIn},
				{"index", "areas/health/running", wiki.DirIn},
				{"people/bob", "areas/health/running", wiki.DirBoth},
				{"reference/markdown-syntax", "areas/health/running", wiki.DirIn},
			}},
			// budget's linkers overview, 2024-01-16 and taxes 2024; index's
			// glossary, unclosed-frontmatter and links-edge-cases; bob's
			// 2024-01-15, meeting-notes and plan
			{9, nil},
		}},
		{"depth 0", "index", wiki.DirBoth, 0, 10, nil},
		{"missing", "nothing/here", wiki.DirBoth, 1, 10, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := g.Neighbors(tt.path, tt.dir, tt.depth, tt.limit)
			if len(got) < len(tt.want) {
				t.Fatalf("Neighbors gave %d levels, want at least %d: %+v", len(got), len(tt.want), got)
			}
			for i, w := range tt.want {
				lv := got[i]
				if lv.Depth != i+1 || lv.Total != w.total {
					t.Errorf("level %d: depth %d, total %d; want total %d", i+1, lv.Depth, lv.Total, w.total)
				}
				if w.notes == nil {
					continue
				}
				var ns []note
				for _, n := range lv.Notes {
					ns = append(ns, note{n.Path, n.Via, n.Direction})
				}
				if !reflect.DeepEqual(ns, w.notes) {
					t.Errorf("level %d notes =\n%v\nwant\n%v", i+1, ns, w.notes)
				}
			}
			if tt.depth < len(got) {
				t.Errorf("Neighbors gave %d levels for depth %d", len(got), tt.depth)
			}
		})
	}
	t.Run("levels are disjoint and complete", func(t *testing.T) {
		levels := g.Neighbors("index", wiki.DirBoth, 10, 0)
		seen := map[string]bool{"index": true}
		for _, lv := range levels {
			if len(lv.Notes) != lv.Total {
				t.Errorf("depth %d lists %d of %d with no limit", lv.Depth, len(lv.Notes), lv.Total)
			}
			for _, n := range lv.Notes {
				if seen[n.Path] {
					t.Errorf("%s listed twice", n.Path)
				}
				seen[n.Path] = true
			}
		}
		// everything not reachable either way is an island: no links at all
		for _, n := range g.sortedUnder("") {
			if !seen[n.path] && (n.in.len() > 0 || n.out.len() > 0) {
				reach := false
				for m := range n.in.all() {
					reach = reach || seen[m.path]
				}
				for m := range n.out.all() {
					reach = reach || seen[m.path]
				}
				if reach {
					t.Errorf("%s is linked with a reached note but was not reached", n.path)
				}
			}
		}
	})
}

func TestGraph_ShortestPath(t *testing.T) {
	g := fixture(t)
	tests := []struct {
		name, from, to string
		dir            wiki.Direction
		max            int
		want           []string
	}{
		{"out", "areas/health/sleep", "projects/alpha/plan", wiki.DirOut, 0,
			[]string{"areas/health/sleep", "areas/café", "people/alice", "projects/alpha/decisions", "projects/alpha/plan"}},
		{"out back", "projects/alpha/plan", "areas/health/sleep", wiki.DirOut, 0,
			[]string{"projects/alpha/plan", "people/bob", "areas/health/running", "areas/health/sleep"}},
		{"too deep", "projects/alpha/plan", "areas/health/sleep", wiki.DirOut, 2, nil},
		{"just deep enough", "projects/alpha/plan", "areas/health/sleep", wiki.DirOut, 3,
			[]string{"projects/alpha/plan", "people/bob", "areas/health/running", "areas/health/sleep"}},
		{"in", "people/alice", "index", wiki.DirIn, 0, []string{"people/alice", "index"}},
		{"unreachable out", "archive/old-project", "index", wiki.DirOut, 0, nil},
		{"both", "archive/old-project", "index", wiki.DirBoth, 0,
			[]string{"archive/old-project", "projects/alpha/overview", "index"}},
		{"itself", "index", "index", wiki.DirOut, 0, []string{"index"}},
		{"missing", "index", "nothing/here", wiki.DirBoth, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, n := range g.ShortestPath(tt.from, tt.to, tt.dir, tt.max) {
				got = append(got, n.Path)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ShortestPath = %q, want %q", got, tt.want)
			}
		})
	}
}
