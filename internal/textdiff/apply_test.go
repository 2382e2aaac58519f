package textdiff

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// applyUnified applies a one-file diff made by Unified to old. It is strict:
// every hunk must start where its header says, its context and deleted lines
// must match old exactly, and its counts must add up.
func applyUnified(old []byte, patch string) ([]byte, error) {
	src := splitLines(string(old))
	lines := splitLines(patch)
	var out []string
	pos := 0 // next line of src
	for i := 0; i < len(lines); {
		l := lines[i]
		i++
		if !strings.HasPrefix(l, "@@ ") {
			continue
		}
		var a, b, c, d int
		if err := parseHunkHeader(l, &a, &b, &c, &d); err != nil {
			return nil, err
		}
		start := a - 1
		if b == 0 {
			start = a
		}
		if start < pos || start > len(src) {
			return nil, fmt.Errorf("hunk %q starts at line %d, before %d or past %d", l, start, pos, len(src))
		}
		out = append(out, src[pos:start]...)
		pos = start
		newStart := c - 1
		if d == 0 {
			newStart = c
		}
		if len(out) != newStart {
			return nil, fmt.Errorf("hunk %q: new side starts after %d lines", l, len(out))
		}
		for b > 0 || d > 0 {
			if i >= len(lines) {
				return nil, fmt.Errorf("hunk %q is cut short", l)
			}
			hl := lines[i]
			i++
			text := hl[1:]
			if i < len(lines) && lines[i] == "\\ No newline at end of file\n" {
				text = strings.TrimSuffix(text, "\n")
				i++
			}
			switch hl[0] {
			case ' ', '-':
				if pos >= len(src) || src[pos] != text {
					return nil, fmt.Errorf("hunk %q: line %d does not match %q", l, pos+1, text)
				}
				pos++
				b--
				if hl[0] == ' ' {
					out = append(out, text)
					d--
				}
			case '+':
				out = append(out, text)
				d--
			default:
				return nil, fmt.Errorf("hunk %q: bad line %q", l, hl)
			}
			if b < 0 || d < 0 {
				return nil, fmt.Errorf("hunk %q: more lines than the header says", l)
			}
		}
	}
	out = append(out, src[pos:]...)
	return []byte(strings.Join(out, "")), nil
}

func parseHunkHeader(l string, a, b, c, d *int) error {
	f := strings.Fields(l)
	if len(f) < 4 || f[0] != "@@" || f[3] != "@@" || f[1][0] != '-' || f[2][0] != '+' {
		return fmt.Errorf("bad hunk header %q", l)
	}
	parse := func(s string, start, n *int) error {
		num, count, found := strings.Cut(s, ",")
		var err error
		if *start, err = strconv.Atoi(num); err != nil {
			return fmt.Errorf("bad hunk header %q: %w", l, err)
		}
		*n = 1
		if found {
			if *n, err = strconv.Atoi(count); err != nil {
				return fmt.Errorf("bad hunk header %q: %w", l, err)
			}
		}
		return nil
	}
	if err := parse(f[1][1:], a, b); err != nil {
		return err
	}
	return parse(f[2][1:], c, d)
}

// TestApplyUnified checks that the test applier rejects what does not fit,
// so that FuzzUnified can fail.
func TestApplyUnified(t *testing.T) {
	old, new := []byte(numbered(10)), []byte(replaceLine(numbered(10), 5, "five\n"))
	patch := Unified([]FileDiff{{"n.md", "n.md", old, new}}, 3)
	tests := []struct {
		name  string
		old   []byte
		patch string
	}{
		{"other old text", []byte(replaceLine(numbered(10), 4, "four\n")), patch},
		{"hunk moved", old, strings.Replace(patch, "@@ -2,7 +2,7 @@", "@@ -3,7 +3,7 @@", 1)},
		{"count too small", old, strings.Replace(patch, "@@ -2,7 +2,7 @@", "@@ -2,6 +2,7 @@", 1)},
		{"cut short", old, strings.TrimSuffix(patch, " 8\n")},
		{"missing newline marker dropped", []byte("a"), "@@ -1 +1 @@\n-a\n+b\n"},
	}
	if got, err := applyUnified(old, patch); err != nil || !bytes.Equal(got, new) {
		t.Fatalf("applyUnified = %q, %v; want %q", got, err, new)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := applyUnified(tt.old, tt.patch); err == nil {
				t.Errorf("applyUnified = %q, want an error", got)
			}
		})
	}
}
