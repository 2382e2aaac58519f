package note

import (
	"fmt"
	"strings"

	"github.com/wikid/wikid/internal/wikierr"
)

// maxListedHeadings is how many headings a not-found message names; the
// error's Details hold them all.
const maxListedHeadings = 30

// Section finds a heading by text: the first heading at any level whose text
// equals query (case-insensitive, trimmed; leading #'s in query ignored). A
// query with '/' is a path "Parent/Child/..." matched against ancestor
// chains (each segment a heading text, consecutive levels need not be
// adjacent; the last segment is the target); if the plain text of the whole
// query matches a heading exactly, that wins first. A path matching more
// than one heading is CodeAmbiguous (message lists the lines). No match is
// CodeNotFound whose message lists the existing headings (and
// Details["headings"] = []string).
//
// In a path each segment must be the parent (Heading.Parent) of the next,
// so "Alpha/Status" finds a Status directly under an Alpha, which itself
// may sit anywhere. An empty query is CodeInvalidParams.
//
// The section of the heading h is Raw[h.Start:h.End], nested headings
// included; its content is Raw[h.ContentStart:h.End].
func (n *Note) Section(query string) (Heading, error) {
	q := normHeading(query)
	if q == "" {
		return Heading{}, wikierr.Errorf(wikierr.CodeInvalidParams, "section is empty").
			WithHint("give the text of a heading, without the '#' marks")
	}
	for _, h := range n.Headings {
		if strings.EqualFold(normHeading(h.Text), q) {
			return h, nil
		}
	}
	if strings.Contains(q, "/") {
		switch matches := n.matchPath(q); len(matches) {
		case 0:
		case 1:
			return n.Headings[matches[0]], nil
		default:
			lines := make([]int, len(matches))
			for i, m := range matches {
				lines[i] = n.Headings[m].Line
			}
			e := wikierr.Errorf(wikierr.CodeAmbiguous, "section %q matches %d headings, on lines %s", query, len(matches), joinInts(lines)).
				WithHint("make the path longer, from a heading further up, so that it names one section")
			e.Details = map[string]any{"lines": lines}
			return Heading{}, e
		}
	}
	return Heading{}, n.sectionNotFound(query)
}

// matchPath returns the indexes of the headings whose ancestor chain ends
// with the segments of the path q.
func (n *Note) matchPath(q string) []int {
	var segs []string
	for seg := range strings.SplitSeq(q, "/") {
		if seg = normHeading(seg); seg != "" {
			segs = append(segs, seg)
		}
	}
	if len(segs) == 0 {
		return nil
	}
	var matches []int
	for i, h := range n.Headings {
		if !strings.EqualFold(normHeading(h.Text), segs[len(segs)-1]) {
			continue
		}
		p, ok := h.Parent, true
		for k := len(segs) - 2; k >= 0 && ok; k-- {
			ok = p >= 0 && strings.EqualFold(normHeading(n.Headings[p].Text), segs[k])
			if ok {
				p = n.Headings[p].Parent
			}
		}
		if ok {
			matches = append(matches, i)
		}
	}
	return matches
}

// sectionNotFound is the CodeNotFound error for a query that names no
// heading, listing the headings there are.
func (n *Note) sectionNotFound(query string) *wikierr.Error {
	texts := make([]string, len(n.Headings))
	for i, h := range n.Headings {
		texts[i] = h.Text
	}
	var list string
	switch {
	case len(texts) == 0:
		list = "the note has no headings"
	case len(texts) > maxListedHeadings:
		list = fmt.Sprintf("headings: %s and %d more", quoteList(texts[:maxListedHeadings]), len(texts)-maxListedHeadings)
	default:
		list = "headings: " + quoteList(texts)
	}
	e := wikierr.Errorf(wikierr.CodeNotFound, "section %q not found; %s", query, list).
		WithHint("use the text of one of the headings, without the '#' marks, or Parent/Child for a nested one")
	e.Details = map[string]any{"headings": texts}
	return e
}

// normHeading is a heading text or query as compared: trimmed, without
// leading '#' marks.
func normHeading(s string) string {
	return strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(s), "#"))
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}
