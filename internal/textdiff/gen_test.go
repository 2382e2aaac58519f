package textdiff

import (
	"fmt"
	"math/rand"
	"strings"
)

// textGen makes random note-like lines. Unique lines never repeat, so the
// minimal line diff between two generated texts is unambiguous; common lines
// come from a small vocabulary and repeat.
type textGen struct {
	r      *rand.Rand
	next   int
	common []string
	nul    bool // whether unique lines may hold NUL bytes
}

func newTextGen(seed int64) *textGen {
	return &textGen{r: rand.New(rand.NewSource(seed)), common: []string{
		"\n", "---\n", "- [ ] todo\n", "## Notes\n", "See [[index]].\n", "\r\n", "* item\n",
	}, nul: true}
}

// unique returns a line no other call returns, sometimes with a CRLF ending,
// trailing whitespace, invalid UTF-8 or (if g.nul) a NUL byte.
func (g *textGen) unique() string {
	g.next++
	s := fmt.Sprintf("line %d of the note", g.next)
	switch g.r.Intn(20) {
	case 0:
		s += "\r"
	case 1:
		s += " \t "
	case 2:
		s += " \xff\xfe caf\xe9"
	case 3:
		if g.nul {
			s += " \x00 nul"
		}
	case 4:
		s = "# " + s
	}
	return s + "\n"
}

// line returns a unique line, or with probability pCommon a common one.
func (g *textGen) line(pCommon float64) string {
	if g.r.Float64() < pCommon {
		return g.common[g.r.Intn(len(g.common))]
	}
	return g.unique()
}

// text returns n lines.
func (g *textGen) text(n int, pCommon float64) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = g.line(pCommon)
	}
	return lines
}

// edit applies k random insertions, deletions and replacements of up to
// three lines to a copy of lines.
func (g *textGen) edit(lines []string, k int, pCommon float64) []string {
	out := append([]string(nil), lines...)
	for range k {
		at := g.r.Intn(len(out) + 1)
		n := 1 + g.r.Intn(3)
		del := 0
		switch g.r.Intn(3) {
		case 1:
			del = min(n, len(out)-at)
			n = 0
		case 2:
			del = min(1+g.r.Intn(3), len(out)-at)
		}
		out = append(out[:at], append(g.text(n, pCommon), out[at+del:]...)...)
	}
	return out
}

// join joins lines, dropping the final newline if noEOL.
func join(lines []string, noEOL bool) string {
	s := strings.Join(lines, "")
	if noEOL {
		s = strings.TrimSuffix(s, "\n")
	}
	return s
}
