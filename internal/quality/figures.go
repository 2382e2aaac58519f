package quality

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Rank returns the 1-based rank of the first of the wanted notes among
// found, best first; 0 when none of them is there. Paths compare without
// their note extension: a search names a note without it.
func Rank(found, want []string) int {
	bare := make([]string, len(want))
	for i, p := range want {
		bare[i] = notePath(p)
	}
	for i, p := range found {
		if slices.Contains(bare, notePath(p)) {
			return i + 1
		}
	}
	return 0
}

// notePath is a file's path without its note extension.
func notePath(p string) string {
	if isNote(p) {
		return strings.TrimSuffix(p, path.Ext(p))
	}
	return p
}

// Figures sums the ranks of a set's questions under one way of asking.
type Figures struct {
	N, Top5, Top10 int
	// RR is the sum of reciprocal ranks; a miss adds 0.
	RR float64
}

// Add counts the rank of one question's first right note, 0 for none.
func (f *Figures) Add(rank int) {
	f.N++
	if rank > 0 {
		f.RR += 1 / float64(rank)
	}
	if rank > 0 && rank <= 5 {
		f.Top5++
	}
	if rank > 0 && rank <= 10 {
		f.Top10++
	}
}

// Share5 and Share10 are the shares of questions with a right note in the
// top 5 and top 10; MRR is the mean reciprocal rank.
func (f Figures) Share5() float64  { return share(f.Top5, f.N) }
func (f Figures) Share10() float64 { return share(f.Top10, f.N) }
func (f Figures) MRR() float64 {
	if f.N == 0 {
		return 0
	}
	return f.RR / float64(f.N)
}

func (f Figures) String() string {
	return fmt.Sprintf("top-5 %3.0f%%  top-10 %3.0f%%  MRR %.2f", 100*f.Share5(), 100*f.Share10(), f.MRR())
}

func share(k, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(k) / float64(n)
}
