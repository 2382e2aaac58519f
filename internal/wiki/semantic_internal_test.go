package wiki

import (
	"math"
	"testing"

	"github.com/wikid/wikid/internal/note"
)

func TestFuse(t *testing.T) {
	text := []SearchHit{{Path: "a", Snippets: []Snippet{{Line: 3, Text: "«a»"}}}, {Path: "b"}, {Path: "c"}}
	near := []Neighbour{{Path: "c", Start: 5, End: 9}, {Path: "a", Start: 1, End: 2}, {Path: "d", Start: 7, End: 7}}
	got := fuse(text, near)
	// Text counts 1/(20+rank), meaning half that.
	best := 1.5 / 21
	want := []struct {
		path  string
		score float64
	}{
		{"a", (1.0/21 + 0.5/22) / best},
		{"c", (1.0/23 + 0.5/21) / best},
		{"b", (1.0 / 22) / best},
		{"d", (0.5 / 23) / best},
	}
	if len(got) != len(want) {
		t.Fatalf("%d notes, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].path != w.path || math.Abs(got[i].score-w.score) > 1e-9 {
			t.Errorf("%d: %s %.4f, want %s %.4f", i, got[i].path, got[i].score, w.path, w.score)
		}
	}
	if len(got[0].snippets) != 1 || got[0].start != 1 {
		t.Errorf("a keeps its text snippet and its chunk: %+v", got[0])
	}
	if got[3].start != 7 || got[3].snippets != nil {
		t.Errorf("d has its chunk only: %+v", got[3])
	}
	if one := fuse([]SearchHit{{Path: "x"}}, []Neighbour{{Path: "x"}}); one[0].score != 1 {
		t.Errorf("first in both scores %v, want 1", one[0].score)
	}
}

func TestChunkSnippet(t *testing.T) {
	n := note.Parse("n", []byte("---\ntitle: T\n---\n# Plan\n\nShip the beta.\n\n## Risks\n"))
	for _, c := range []struct {
		start, end int
		line       int
		text       string
	}{
		{4, 6, 6, "Ship the beta."},
		{8, 8, 8, "## Risks"}, // only a heading: the heading
	} {
		if s := chunkSnippet(n, c.start, c.end); s.Line != c.line || s.Text != c.text {
			t.Errorf("lines %d-%d: %+v, want line %d %q", c.start, c.end, s, c.line, c.text)
		}
	}
}
