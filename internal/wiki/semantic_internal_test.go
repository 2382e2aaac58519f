package wiki

import (
	"fmt"
	"math"
	"testing"

	"github.com/wikid/wikid/internal/note"
)

func TestFuse(t *testing.T) {
	text := []SearchHit{{Path: "a", Score: 4, Snippets: []Snippet{{Line: 3, Text: "«a»"}}}, {Path: "b", Score: 2}, {Path: "c", Score: 1}}
	near := []Neighbour{{Path: "c", Score: 0.9, Start: 5, End: 9}, {Path: "a", Score: 0.8, Start: 1, End: 2}, {Path: "d", Score: 0.7, Start: 7, End: 7}}
	got := fuse(text, near, nil, 0.6)
	// Text counts 0.6 times 21/(20+rank), meaning 0.4 times its cosine
	// above the farthest note's in standard deviations of the cosines
	// (0.9, 0.8 and 0.7: sd = sqrt(0.02/3)), all divided by what a note
	// first in both would score, so that scores run from 0 to 1.
	sd := math.Sqrt(0.02 / 3)
	best := 0.6 + 0.4*0.2/sd
	want := []struct {
		path  string
		score float64
	}{
		{"c", (0.6*21/23 + 0.4*0.2/sd) / best},
		{"a", (0.6*1 + 0.4*0.1/sd) / best},
		{"b", 0.6 * 21 / 22 / best},
		{"d", 0},
	}
	if len(got) != len(want) {
		t.Fatalf("%d notes, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].path != w.path || math.Abs(got[i].score-w.score) > 1e-9 {
			t.Errorf("%d: %s %.4f, want %s %.4f", i, got[i].path, got[i].score, w.path, w.score)
		}
	}
	if got[0].score > 1 {
		t.Errorf("the first note scores %.4f, over 1", got[0].score)
	}
	if len(got[1].snippets) != 1 || got[1].start != 1 {
		t.Errorf("a keeps its text snippet and its chunk: %+v", got[1])
	}
	if got[3].start != 7 || got[3].snippets != nil {
		t.Errorf("d has its chunk only: %+v", got[3])
	}
	if one := fuse([]SearchHit{{Path: "x", Score: 3}}, []Neighbour{{Path: "x", Score: 0.5}}, nil, 0.6); one[0].score != 1 {
		t.Errorf("first in both scores %v, want 1", one[0].score)
	}
	hubbed := fuse(nil, near, map[string]float64{"c": 0.9}, 0.6)
	if hubbed[0].path != "a" {
		t.Errorf("a hub comes first: %+v", hubbed)
	}
}

// TestFuse_MeaningPromotes checks that a note only meaning finds, well
// ahead of the others, reaches the top 5 of a question whose words match
// many notes a little (reciprocal rank fusion with k 20 and meaning at
// half weight put it after all 40 of them), and
// that a hub, near to questions about nothing in particular, does not.
func TestFuse_MeaningPromotes(t *testing.T) {
	var text []SearchHit
	var near []Neighbour
	for i := range 40 {
		text = append(text, SearchHit{Path: fmt.Sprintf("t%02d", i), Score: 3 - 0.05*float64(i)})
	}
	near = append(near, Neighbour{Path: "meant", Score: 0.82}, Neighbour{Path: "hub", Score: 0.81})
	for i := range 40 {
		near = append(near, Neighbour{Path: fmt.Sprintf("t%02d", 39-i), Score: 0.70 - 0.004*float64(i)})
	}
	hub := map[string]float64{"hub": 0.8, "meant": 0.5}
	for i := range 40 {
		hub[fmt.Sprintf("t%02d", i)] = 0.5
	}
	ranked := fuse(text, near, hub, defaultTextShare)
	rank := func(p string) int {
		for i, r := range ranked {
			if r.path == p {
				return i + 1
			}
		}
		return 0
	}
	if r := rank("meant"); r == 0 || r > 5 {
		t.Errorf("the note only meaning finds ranks %d, want the top 5", r)
	}
	if r := rank("hub"); r <= 5 {
		t.Errorf("the hub ranks %d, want it out of the top 5", r)
	}
}

// TestFuse_MeaningApart checks that a note meaning sets well apart from
// all the others comes before text's first note, which meaning ranks
// among the rest: meaning's nearest note scored no more than text's first
// when meaning counted relative to its nearest note's cosine.
func TestFuse_MeaningApart(t *testing.T) {
	var text []SearchHit
	near := []Neighbour{{Path: "meant", Score: 0.80}}
	for i := range 30 {
		text = append(text, SearchHit{Path: fmt.Sprintf("t%02d", i), Score: 3 - 0.05*float64(i)})
		near = append(near, Neighbour{Path: fmt.Sprintf("t%02d", (i+10)%30), Score: 0.60 - 0.002*float64(i)})
	}
	if got := fuse(text, near, nil, 0.6); got[0].path != "meant" {
		t.Errorf("a note meaning sets apart comes after %s", got[0].path)
	}
}

// TestFusionTextShare checks that a hybrid search weighs text as the model
// says, by default when it says nothing or a static model ranks some
// notes while it embeds them.
func TestFusionTextShare(t *testing.T) {
	for _, c := range []struct {
		st   SemanticState
		want float64
	}{
		{SemanticState{}, defaultTextShare},
		{SemanticState{TextShare: 0.6}, 0.6},
		{SemanticState{TextShare: 1.5}, defaultTextShare},
		{SemanticState{TextShare: 0.6, Unembedded: 3}, 0.6},
		{SemanticState{TextShare: 0.6, Unembedded: 3, Static: "glove"}, defaultTextShare},
		{SemanticState{TextShare: 0.6, Static: "glove"}, 0.6},
	} {
		if got := fusionTextShare(c.st); got != c.want {
			t.Errorf("%+v: %g, want %g", c.st, got, c.want)
		}
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
