package textdiff

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// exactLimit is the number of lines that can match (old plus new, after the
// common prefix and suffix) up to which the diff is computed without a
// deadline. Myers' algorithm takes time proportional to this number times
// the number of differing lines; the worst case, 4096 distinct lines in the
// opposite order, takes some 80 ms on a 2-core machine (BenchmarkUnified).
const exactLimit = 1 << 13

// deadline bounds the diff of more lines than exactLimit; past it go-diff
// returns a correct diff that may not be minimal.
const deadline = 500 * time.Millisecond

// maxLineIDs is the number of distinct lines that can be encoded as runes for
// go-diff: every code point except the surrogates.
const maxLineIDs = utf8.MaxRune + 1 - (0xE000 - 0xD800)

// splitLines splits s into lines, each keeping its "\n". A last line without
// a newline is a line of its own; an empty text has no lines. The lines are
// substrings of s, so splitting copies nothing.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	n := strings.Count(s, "\n")
	if s[len(s)-1] != '\n' {
		n++
	}
	lines := make([]string, 0, n)
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

// change replaces old lines [A, A+Del) with new lines [B, B+Ins). A diff is a
// list of changes in increasing order, separated by at least one equal line.
type change struct {
	A, Del int
	B, Ins int
}

// diffLines returns the changes that turn a into b, slid into place the way
// git does (see compact).
//
// It trims the common prefix and suffix, and leaves out of the search the
// lines that occur on one side only: no diff can match them, so the longest
// common subsequence, and with it a minimal diff, stays the same. This makes
// rewriting a note cheap, where most lines have no counterpart.
func diffLines(a, b []string) []change {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(ma) == 0 && len(mb) == 0 {
		return nil
	}
	// Mark the lines of a and b outside the matches as changed.
	delA, insB := make([]bool, len(a)), make([]bool, len(b))
	prevA, prevB := 0, 0 // the lines of ma and mb after the last match
	for _, m := range append(matchLines(ma, mb), match{len(ma), len(mb)}) {
		for i := prevA; i < m.a; i++ {
			delA[pre+i] = true
		}
		for j := prevB; j < m.b; j++ {
			insB[pre+j] = true
		}
		prevA, prevB = m.a+1, m.b+1
	}
	sa, sb := &side{a, delA}, &side{b, insB}
	compact(sa, sb)
	compact(sb, sa)
	return changes(delA, insB)
}

// changes turns marks of deleted and inserted lines into a list of changes.
// The unmarked lines of both texts pair up in order.
func changes(delA, insB []bool) []change {
	var out []change
	i, j := 0, 0
	for i < len(delA) || j < len(insB) {
		if (i < len(delA) && delA[i]) || (j < len(insB) && insB[j]) {
			c := change{A: i, B: j}
			for i < len(delA) && delA[i] {
				i++
			}
			for j < len(insB) && insB[j] {
				j++
			}
			c.Del, c.Ins = i-c.A, j-c.B
			out = append(out, c)
			continue
		}
		i, j = i+1, j+1
	}
	return out
}

// match pairs line a of one text with the equal line b of the other.
type match struct{ a, b int }

// matchLines returns a longest common subsequence of a and b as increasing
// pairs of line indexes, found by go-diff's Myers diff on the lines that
// occur on both sides, each encoded as one rune.
func matchLines(a, b []string) []match {
	// Number the distinct lines and count them on each side.
	type lineInfo struct {
		inA, inB int
		id       rune // the rune of a line on both sides; -1 until given
	}
	var infos []lineInfo
	index := make(map[string]int, len(a))
	codeA := make([]int, len(a))
	for i, l := range a {
		k, ok := index[l]
		if !ok {
			k = len(infos)
			index[l] = k
			infos = append(infos, lineInfo{id: -1})
		}
		infos[k].inA++
		codeA[i] = k
	}
	codeB := make([]int, len(b))
	for j, l := range b {
		k, ok := index[l]
		if !ok {
			codeB[j] = -1 // not in a
			continue
		}
		infos[k].inB++
		codeB[j] = k
	}
	// Keep the lines that occur on both sides, each as a rune.
	nextID := rune(0)
	keep := func(codes []int) (kept []int, rs []rune, ok bool) {
		for i, k := range codes {
			if k < 0 || infos[k].inA == 0 || infos[k].inB == 0 {
				continue
			}
			if infos[k].id < 0 {
				if int(nextID) >= maxLineIDs {
					return nil, nil, false
				}
				infos[k].id = nextID
				if nextID >= 0xD800 {
					infos[k].id += 0xE000 - 0xD800 // skip the surrogates
				}
				nextID++
			}
			kept, rs = append(kept, i), append(rs, infos[k].id)
		}
		return kept, rs, true
	}
	ka, ra, okA := keep(codeA)
	kb, rb, okB := keep(codeB)
	if !okA || !okB || len(ka) == 0 {
		return nil
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	if len(ka)+len(kb) > exactLimit {
		dmp.DiffTimeout = deadline
	}
	var out []match
	i, j := 0, 0
	for _, d := range dmp.DiffMainRunes(ra, rb, false) {
		n := utf8.RuneCountInString(d.Text)
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			for range n {
				out = append(out, match{ka[i], kb[j]})
				i, j = i+1, j+1
			}
		case diffmatchpatch.DiffDelete:
			i += n
		case diffmatchpatch.DiffInsert:
			j += n
		}
	}
	return out
}
