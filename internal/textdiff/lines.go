package textdiff

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// exactLimit is the number of differing lines (old plus new, after the common
// prefix and suffix) up to which the diff is computed without a deadline.
const exactLimit = 1 << 14

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

// diffLines returns the changes that turn a into b.
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
	whole := []change{{A: pre, Del: len(ma), B: pre, Ins: len(mb)}}
	switch {
	case len(ma) == 0 && len(mb) == 0:
		return nil
	case len(ma) == 0 || len(mb) == 0:
		return whole
	}
	ra, rb, ok := lineRunes(ma, mb)
	if !ok {
		return whole
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	if len(ma)+len(mb) > exactLimit {
		dmp.DiffTimeout = time.Second
	}
	var (
		out     []change
		pending *change
		i, j    = pre, pre
	)
	for _, d := range dmp.DiffMainRunes(ra, rb, false) {
		n := utf8.RuneCountInString(d.Text)
		if d.Type == diffmatchpatch.DiffEqual {
			if pending != nil {
				out = append(out, *pending)
				pending = nil
			}
			i, j = i+n, j+n
			continue
		}
		if pending == nil {
			pending = &change{A: i, B: j}
		}
		if d.Type == diffmatchpatch.DiffDelete {
			pending.Del += n
			i += n
		} else {
			pending.Ins += n
			j += n
		}
	}
	if pending != nil {
		out = append(out, *pending)
	}
	return out
}

// lineRunes gives every distinct line of a and b a rune, so that go-diff can
// compare lines as characters. It reports false if there are more distinct
// lines than runes.
func lineRunes(a, b []string) (ra, rb []rune, ok bool) {
	ids := make(map[string]rune, len(a)+len(b))
	encode := func(lines []string) []rune {
		rs := make([]rune, len(lines))
		for k, l := range lines {
			r, seen := ids[l]
			if !seen {
				n := len(ids)
				if n >= maxLineIDs {
					return nil
				}
				r = rune(n)
				if r >= 0xD800 {
					r += 0xE000 - 0xD800
				}
				ids[l] = r
			}
			rs[k] = r
		}
		return rs
	}
	ra = encode(a)
	rb = encode(b)
	return ra, rb, ra != nil && rb != nil
}
