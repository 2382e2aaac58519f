package gather

import (
	"bytes"
	"strings"

	"github.com/wikid/wikid/internal/note"
)

// Section is a run of a note's lines under one heading: from the line
// after the heading to the line before the next heading of any level, or
// the text before the first heading.
type Section struct {
	// Heading is the chain of headings above the lines, joined by " > ",
	// for example "Alpha plan > Risks > Technical"; empty for the text
	// before the first heading.
	Heading string
	// Start and End are the section's first and last line in the file,
	// blank lines at either end left out.
	Start, End int
	// Lines are the section's lines, Start to End.
	Lines []string
	// own is the section's own heading, the last of Heading.
	own string
}

// Split returns a note's sections in file order, leaving out those without
// text.
func Split(n *note.Note) []Section {
	type cut struct {
		heading    string
		own        string
		start, end int // byte range of the content
		line       int // line of start
	}
	var cuts []cut
	first := len(n.Raw)
	if len(n.Headings) > 0 {
		first = n.Headings[0].Start
	}
	cuts = append(cuts, cut{start: n.BodyStart, end: first, line: n.BodyLine})
	for i, h := range n.Headings {
		end := len(n.Raw)
		if i+1 < len(n.Headings) {
			end = n.Headings[i+1].Start
		}
		line := h.Line + bytes.Count(n.Raw[h.Start:h.ContentStart], []byte("\n"))
		cuts = append(cuts, cut{heading: headingChain(n.Headings, i), own: h.Text, start: h.ContentStart, end: end, line: line})
	}

	var out []Section
	for _, c := range cuts {
		if c.start >= c.end {
			continue
		}
		lines := strings.Split(strings.TrimSuffix(string(n.Raw[c.start:c.end]), "\n"), "\n")
		for i := range lines {
			lines[i] = strings.TrimSuffix(lines[i], "\r")
		}
		start := c.line
		for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
			lines = lines[1:]
			start++
		}
		for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
			lines = lines[:len(lines)-1]
		}
		if len(lines) == 0 {
			continue
		}
		out = append(out, Section{Heading: c.heading, own: c.own, Start: start, End: start + len(lines) - 1, Lines: lines})
	}
	return out
}

// headingChain joins the texts of heading i and its ancestors, outermost
// first.
func headingChain(hs []note.Heading, i int) string {
	var chain []string
	for ; i >= 0; i = hs[i].Parent {
		chain = append(chain, hs[i].Text)
	}
	for a, b := 0, len(chain)-1; a < b; a, b = a+1, b-1 {
		chain[a], chain[b] = chain[b], chain[a]
	}
	return strings.Join(chain, " > ")
}
