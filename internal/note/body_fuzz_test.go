package note

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkBody checks what must hold for any body scanned from src[start:]
// beginning on line startLine: offsets in bounds and ordered, line numbers
// matching offsets, targets matching their bytes, no line ending in any
// text, and valid UTF-8 out of valid UTF-8 in.
func checkBody(tb testing.TB, src []byte, start, startLine int, b body) {
	tb.Helper()
	start = max(0, min(start, len(src)))
	lineOf := func(off int) int { return startLine + bytes.Count(src[start:off], []byte("\n")) }
	valid := utf8.Valid(src)
	text := func(what, s string) {
		tb.Helper()
		if strings.ContainsAny(s, "\r\n") {
			tb.Errorf("%s %q holds a line ending", what, s)
		}
		if valid && !utf8.ValidString(s) {
			tb.Errorf("%s %q is not valid UTF-8", what, s)
		}
	}

	prev := start
	for i, h := range b.Headings {
		if h.Start < prev || h.Start >= h.ContentStart || h.ContentStart > h.End || h.End > len(src) {
			tb.Fatalf("heading %d %q: start %d content %d end %d out of order (previous %d, len %d)",
				i, h.Text, h.Start, h.ContentStart, h.End, prev, len(src))
		}
		if h.Start != start && src[h.Start-1] != '\n' {
			tb.Errorf("heading %d %q starts mid-line at %d", i, h.Text, h.Start)
		}
		if h.Level < 1 || h.Level > 6 {
			tb.Errorf("heading %d level %d", i, h.Level)
		}
		if got := lineOf(h.Start); h.Line != got {
			tb.Errorf("heading %d %q: line %d, offset %d is on line %d", i, h.Text, h.Line, h.Start, got)
		}
		if h.Parent >= i || h.Parent < -1 || (h.Parent >= 0 && b.Headings[h.Parent].Level >= h.Level) {
			tb.Errorf("heading %d (level %d): bad parent %d", i, h.Level, h.Parent)
		}
		if i+1 < len(b.Headings) && h.ContentStart > b.Headings[i+1].Start {
			tb.Errorf("heading %d content starts at %d, after the next heading at %d", i, h.ContentStart, b.Headings[i+1].Start)
		}
		text("heading text", h.Text)
		prev = h.ContentStart
	}

	prev = start
	for i, l := range b.Links {
		if l.Start < prev || l.Start > l.TargetStart || l.TargetStart > l.TargetEnd || l.TargetEnd > l.End || l.End > len(src) {
			tb.Fatalf("link %d %q: start %d target [%d, %d) end %d out of order (previous end %d, len %d)",
				i, l.Target, l.Start, l.TargetStart, l.TargetEnd, l.End, prev, len(src))
		}
		if got := lineOf(l.Start); l.Line != got {
			tb.Errorf("link %d %q: line %d, offset %d is on line %d", i, l.Target, l.Line, l.Start, got)
		}
		raw := src[l.TargetStart:l.TargetEnd]
		switch l.Kind {
		case LinkWiki, LinkEmbed:
			if l.Target != string(raw) {
				tb.Errorf("link %d: target %q, bytes at target %q", i, l.Target, raw)
			}
		case LinkMarkdown:
			if l.Target != decodeURL(raw) || !hasFileExt(l.Target) {
				tb.Errorf("link %d: target %q, bytes at target %q", i, l.Target, raw)
			}
			if mark := l.Start < len(src) && src[l.Start] == '!'; mark != l.Embed {
				tb.Errorf("link %d %q: embed %v, starts with %q", i, l.Target, l.Embed, src[l.Start])
			}
		default:
			tb.Errorf("link %d: kind %q", i, l.Kind)
		}
		text("link target", l.Target)
		text("link heading", l.Heading)
		text("link label", l.Label)
		prev = l.End
	}

	for _, tag := range b.Tags {
		if tag == "" || strings.ContainsAny(tag, "# \t") || strings.HasSuffix(tag, "/") {
			tb.Errorf("bad tag %q", tag)
		}
		text("tag", tag)
	}
}

func FuzzScanBody(f *testing.F) {
	for _, s := range []string{
		"# A\n## B\ntext [[x]] #tag\n",
		"Title\n===\nSub\r\n---\r\n",
		"```\n# code\n```\n~~~~\n[[no]]\n~~~\n",
		"> ```\n> # q\n> ```\n- item\n\n    [l](a%20b.md#h)\n",
		"<!--\n[[x]]\n-->\n`[[y]]` ![[z.png]] [[a\\|b]]\n",
		"para\n\n    code\n\t#tab\n",
		"[[#h]] [a](<b c.md> \"t\") ![i](x.png) http://x/#y #日本\n",
		"\xff# \xfe\n[[\xff]]\n#\xe2\x82\n",
	} {
		f.Add(s, 0)
	}
	f.Fuzz(func(t *testing.T, src string, start int) {
		b := []byte(src)
		if start < 0 || start > len(b) {
			start = 0
		}
		// scanBody is only called at line starts.
		if start > 0 && b[start-1] != '\n' {
			start = 0
		}
		startLine := 1 + bytes.Count(b[:start], []byte("\n"))
		checkBody(t, b, start, startLine, scanBody(b, start, startLine))
	})
}

func FuzzLinks(f *testing.F) {
	for _, s := range []string{
		"[[a]] [[b|c]] [[d#e]] [[f#g|h]] [[#i]] ![[j.png]]",
		"[l](a.md) [l](b.md#c) [l](<c d.md>) [l](e%20f.md \"t\") [l](g(h).md)",
		"| [[a\\|b]] | [x](y.markdown) |\n[[ sp ]]",
	} {
		f.Add(s)
	}
	// Rewriting a target in place, as a move does, changes only that
	// link's target: every link is still there, in the same place.
	f.Fuzz(func(t *testing.T, src string) {
		b := scanBody([]byte(src), 0, 1)
		checkBody(t, []byte(src), 0, 1, b)
		for i, l := range b.Links {
			n := l.TargetEnd - l.TargetStart
			repl := strings.Repeat("x", n)
			if l.Kind == LinkMarkdown {
				if n < 3 {
					continue
				}
				repl = strings.Repeat("x", n-3) + ".md"
			} else if n == 0 {
				continue
			}
			out := src[:l.TargetStart] + repl + src[l.TargetEnd:]
			got := scanBody([]byte(out), 0, 1)
			if len(got.Links) != len(b.Links) {
				t.Fatalf("rewriting link %d in %q to %q: %d links, want %d", i, src, out, len(got.Links), len(b.Links))
			}
			for j, g := range got.Links {
				want := b.Links[j]
				want.Target = g.Target
				if g != want {
					t.Fatalf("rewriting link %d in %q: link %d is %+v, want %+v", i, src, j, g, want)
				}
				if j == i && g.Target != repl {
					t.Fatalf("rewriting link %d in %q: target %q, want %q", i, src, g.Target, repl)
				}
			}
		}
	})
}
