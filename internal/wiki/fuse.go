package wiki

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
)

// The fusion of a text and a semantic ranking (see fuse). Tuned on the
// labelled sets of package quality, the Anki manual's, the Docker CLI
// documentation's and the Obsidian help vault's; rclone's command
// reference, a set nobody tuned on, checked it. Hybrid top 5 with meaning
// relative to the nearest note's cosine (the fusion before this one) and
// with it in standard deviations: with the sentence encoder (text at
// 0.6), Anki 93% and 93%, Docker 83% and 85%, Obsidian 78% and 85%,
// rclone 60% and 78%; with GloVe (text at 0.85), Anki 84% and 82%, Docker
// 77% and 77%, Obsidian 65% and 63%.
const (
	// defaultTextShare weighs the text ranking's part of a fused score,
	// and the rest meaning's, for a model that names no weight of its own
	// (SemanticState.TextShare): word vectors, whose meaning is a weaker
	// guide than a sentence encoder's.
	defaultTextShare = 0.85
	// rrfK damps the text ranking's ranks: the note ranked r by text
	// scores (rrfK+1)/(rrfK+r) of textShare. A question's words match
	// most notes a little, and their scores say less than their order.
	rrfK = 20
	// hubWeight is how much of a note's cosine with questions about
	// nothing in particular (hubProbes) is taken off its cosine with the
	// question: a note near every question says little by being near
	// this one.
	hubWeight = 0.5
)

// fuse merges a text and a semantic ranking: a note scores textShare
// times (rrfK+1)/(rrfK+r) for its rank r by text, plus 1-textShare times
// its meaning: its cosine with the question, less hubWeight times its
// cosine with questions about nothing in particular (hub, nil for none),
// above the farthest note's such cosine, in standard deviations of those
// cosines. A ranking by meaning that sets a few notes well apart from
// the rest thus weighs more than one that finds all notes alike, and a
// note that only meaning ranks, well ahead of the others, scores above
// text's first note. Scores are divided by a note's first in both, so
// that they run from 0 to 1.
func fuse(text []SearchHit, near []Neighbour, hub map[string]float64, textShare float64) []rankedNote {
	byPath := map[string]*rankedNote{}
	var out []*rankedNote
	get := func(p string) *rankedNote {
		r := byPath[p]
		if r == nil {
			r = &rankedNote{path: p}
			byPath[p] = r
			out = append(out, r)
		}
		return r
	}
	for i, h := range text {
		r := get(h.Path)
		r.snippets, r.text = h.Snippets, true
		r.score += textShare * float64(rrfK+1) / float64(rrfK+i+1)
	}
	cos := make([]float64, len(near))
	floor, mean := math.Inf(1), 0.0
	for i, n := range near {
		cos[i] = n.Score - hubWeight*hub[n.Path]
		floor = min(floor, cos[i])
		mean += cos[i] / float64(len(near))
	}
	sd := 0.0
	for _, c := range cos {
		sd += (c - mean) * (c - mean) / float64(len(near))
	}
	sd = math.Sqrt(sd)
	// best is the score of a note first in both rankings: every score is
	// divided by it, which keeps the order and puts scores in 0–1.
	best := textShare
	for i, n := range near {
		r := get(n.Path)
		r.start, r.end = n.Start, n.End
		switch {
		case sd > 0:
			m := (1 - textShare) * (cos[i] - floor) / sd
			r.score += m
			best = max(best, textShare+m)
		case i == 0:
			r.score += 1 - textShare // one note, or all alike
			best = 1
		}
	}
	ranked := make([]rankedNote, len(out))
	for i, r := range out {
		ranked[i] = *r
		ranked[i].score /= best
	}
	slices.SortStableFunc(ranked, func(a, b rankedNote) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return strings.Compare(a.path, b.path)
	})
	return ranked
}

// hubProbes are questions about nothing in particular: the notes near
// them in meaning are near every question.
var hubProbes = []string{"how do I do this", "what is this", "help", "settings and options", "a question", "overview"}

// hubness returns, for each note of near, its mean cosine with hubProbes
// among the notes keep accepts: a note beyond a probe's SemanticDepth
// nearest counts as near as the last of them. It returns nil when a probe
// cannot be embedded: the fusion then damps no hub.
func (w *Wiki) hubness(ctx context.Context, near []Neighbour, keep func(string) bool) map[string]float64 {
	if len(near) == 0 || hubWeight == 0 {
		return nil
	}
	key := ""
	if keep == nil {
		key = hubKey(w.semantic)
	}
	probes := w.hubs.get(key)
	if probes == nil {
		probes = make([]probeNear, len(hubProbes))
		for i, probe := range hubProbes {
			found, err := w.semantic.Nearest(ctx, probe, SemanticDepth, keep)
			if err != nil || len(found) == 0 {
				return nil
			}
			cos := make(map[string]float64, len(found))
			for _, n := range found {
				cos[n.Path] = n.Score
			}
			probes[i] = probeNear{cos: cos, last: found[len(found)-1].Score}
		}
		w.hubs.put(key, probes)
	}
	hub := make(map[string]float64, len(near))
	for _, p := range probes {
		cos, last := p.cos, p.last
		for _, n := range near {
			c, ok := cos[n.Path]
			if !ok {
				c = last
			}
			hub[n.Path] += c / float64(len(hubProbes))
		}
	}
	return hub
}

// probeNear is a hub probe's nearest notes: their cosines with it, and
// the last one's.
type probeNear struct {
	cos  map[string]float64
	last float64
}

// hubCache keeps the hub probes' nearest notes for the semantic index as
// it last was, so that a hybrid search scans the vectors once, not once
// for each probe too. Only searches without a filter use it (key "").
type hubCache struct {
	mu     sync.Mutex
	key    string
	probes []probeNear
}

// hubKey says what the probes' neighbours depend on: the commit the
// index reflects, and how many of its chunks wait for the model.
func hubKey(s Semantic) string {
	st := s.State()
	return fmt.Sprint(s.Commit(), "\x00", st.Model, "\x00", st.Chunks, "\x00", st.Pending)
}

func (c *hubCache) get(key string) []probeNear {
	if key == "" {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.key != key {
		return nil
	}
	return c.probes
}

func (c *hubCache) put(key string, probes []probeNear) {
	if key == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.key, c.probes = key, probes
}
