package history

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/wikid/wikid/internal/textdiff"
)

// hunk replaces old lines [a, a+del) with new lines [b, b+ins), 0-based.
type hunk struct{ a, del, b, ins int }

// lineHunks returns the changes that turn old into new, in order, as the
// hunks of textdiff's unified diff without context: the same line diff that
// wikid shows and that git's xdiff computes.
func lineHunks(old, new []byte) []hunk {
	if bytes.Equal(old, new) {
		return nil
	}
	d := textdiff.Unified([]textdiff.FileDiff{{OldPath: "f", NewPath: "f", Old: old, New: new}}, 0)
	var out []hunk
	for len(d) > 0 {
		line := d
		if i := strings.IndexByte(d, '\n'); i >= 0 {
			line, d = d[:i], d[i+1:]
		} else {
			d = ""
		}
		if !strings.HasPrefix(line, "@@ -") {
			continue
		}
		fields := strings.Fields(line) // @@ -l,s +l,s @@
		if len(fields) < 3 {
			continue
		}
		a, del := hunkRange(fields[1][1:])
		b, ins := hunkRange(fields[2][1:])
		out = append(out, hunk{a, del, b, ins})
	}
	return out
}

// hunkRange parses "l,s" (or "l" for one line) into a 0-based start and a
// count: an empty range "l,0" sits after line l.
func hunkRange(s string) (start, n int) {
	l, c, ok := strings.Cut(s, ",")
	start, _ = strconv.Atoi(l)
	n = 1
	if ok {
		n, _ = strconv.Atoi(c)
	}
	if n == 0 {
		return start, 0
	}
	return start - 1, n
}

// countLines returns the number of lines of content, a last line without
// a newline included.
func countLines(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}
