package quality

import (
	"bytes"
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/wikid/wikid/internal/gather"
)

// GrepRanking ranks the notes of the repository at dir for a question the
// way `git grep` can: the notes that hold any of the question's words
// worth searching for (gather.Terms), as whole words, ignoring case, the
// notes with most of the words first, then those with most lines holding
// one.
func GrepRanking(ctx context.Context, dir, question string) ([]string, error) {
	type note struct {
		path         string
		words, lines int
	}
	byPath := map[string]*note{}
	for _, t := range gather.Terms(question) {
		out, err := git(ctx, dir, nil, "grep", "-z", "-c", "-i", "-w", "-F", "-e", t.Word, "--", "*.md", "*.markdown", "*.mdx")
		if err != nil && len(out) == 0 {
			continue // git grep exits 1 when nothing matches
		}
		for _, line := range bytes.Split(out, []byte("\n")) {
			p, count, ok := strings.Cut(string(line), "\x00")
			n, err := strconv.Atoi(count)
			if !ok || err != nil {
				continue
			}
			r := byPath[p]
			if r == nil {
				r = &note{path: p}
				byPath[p] = r
			}
			r.words++
			r.lines += n
		}
	}
	notes := make([]*note, 0, len(byPath))
	for _, r := range byPath {
		notes = append(notes, r)
	}
	slices.SortFunc(notes, func(a, b *note) int {
		if c := cmp.Compare(b.words, a.words); c != 0 {
			return c
		}
		if c := cmp.Compare(b.lines, a.lines); c != 0 {
			return c
		}
		return cmp.Compare(a.path, b.path)
	})
	out := make([]string, len(notes))
	for i, r := range notes {
		out[i] = r.path
	}
	return out, nil
}
