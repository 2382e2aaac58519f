package web

import (
	"fmt"
	"path"
	"strings"

	"github.com/wikid/wikid/internal/imaging"
	"github.com/wikid/wikid/internal/wiki"
)

// The link map's geometry, in viewBox units (see chart.go): three
// columns, the notes that link to the note, the note, the notes it links
// to.
const (
	mapSideW   = 104 // a neighbour's box
	mapCenterX = 128 // the note's box, mapSideW wide, between the gaps
	mapRightX  = chartW - mapSideW
	mapTop     = 24 // first row, under the columns' headings
	mapRowH    = 26
	mapBoxH    = 20
	mapSideMax = 8  // neighbours drawn a side; the rest are counted
	mapChars   = 16 // characters of a neighbour's title that fit its box
)

// linkMap is the note among its neighbours, as inline SVG.
type linkMap struct {
	// Empty is the sentence shown instead when the note has no links.
	Empty string
	Label string
	W, H  int
	// Center is the note's box; its title is written in up to two lines.
	CenterY, CenterH float64
	CenterX, CenterW float64
	CenterMid        float64 // where the title's lines are centred
	Lines            []mapText
	In, Out          []mapNode
	// MoreIn and MoreOut count the neighbours left out, written under
	// their column at MoreY.
	MoreIn, MoreOut int
	MoreY           float64
	RightX, SideW   float64
}

// mapNode is a neighbour: a link to its page, its box and the edge to the
// note.
type mapNode struct {
	Path, Title, Label string
	Y, TextY           float64
	X, TextX           float64
	Edge               string // the SVG path from its box to the note's
}

// mapText is a line of the note's title.
type mapText struct {
	Y    float64
	Text string
}

// newLinkMap draws the note among the notes that link to it and the notes
// it links to, from the link graph's answer; nil for a note the graph
// does not hold (a deleted one).
func newLinkMap(notePath, title string, links *wiki.LinksResult) *linkMap {
	if links == nil || !links.Exists {
		return nil
	}
	m := &linkMap{W: chartW, CenterX: mapCenterX, CenterW: mapSideW, CenterMid: mapCenterX + mapSideW/2, RightX: mapRightX, SideW: mapSideW}
	var in, out []mapNode
	seen := map[string]bool{notePath: true}
	for _, b := range links.Incoming {
		if !seen[b.Path] {
			seen[b.Path] = true
			in = append(in, mapNode{Path: b.Path, Title: cmpTitle(b.Title, b.Path)})
		}
	}
	moreIn := links.IncomingTotal - len(links.Incoming)
	seen = map[string]bool{notePath: true}
	for _, l := range links.Outgoing {
		if l.Path == "" || seen[l.Path] || imaging.TypeOf(l.Path) != "" {
			continue
		}
		seen[l.Path] = true
		out = append(out, mapNode{Path: l.Path, Title: cmpTitle(l.Title, l.Path)})
	}
	if len(in) == 0 && len(out) == 0 && moreIn <= 0 {
		m.Empty = "No note links here, and this note links to none."
		return m
	}
	if len(in) > mapSideMax {
		moreIn += len(in) - mapSideMax
		in = in[:mapSideMax]
	}
	m.MoreIn = max(moreIn, 0)
	if len(out) > mapSideMax {
		m.MoreOut = len(out) - mapSideMax
		out = out[:mapSideMax]
	}
	rows := max(len(in), len(out), 1)
	m.CenterH = mapBoxH + 16
	mid := mapTop + float64(rows*mapRowH-(mapRowH-mapBoxH))/2
	m.CenterY = mid - m.CenterH/2
	lines := titleLines(title, mapChars-2, 2)
	for i, line := range lines {
		m.Lines = append(m.Lines, mapText{Text: line, Y: mid + 4 + (float64(i)-float64(len(lines)-1)/2)*13})
	}
	place := func(nodes []mapNode, x float64, edge func(y float64) string) []mapNode {
		titles := map[string]int{}
		for _, n := range nodes {
			titles[n.Title]++
		}
		for i := range nodes {
			if titles[nodes[i].Title] > 1 {
				// Notes of one title (daily notes' "Journal") by their names.
				nodes[i].Title = path.Base(nodes[i].Path)
			}
			n := &nodes[i]
			n.X, n.Y = x, float64(mapTop+i*mapRowH)
			n.TextY = n.Y + 14
			n.Label = wordEllipsis(n.Title, mapChars)
			n.Edge = edge(n.Y + mapBoxH/2)
		}
		return nodes
	}
	m.In = place(in, 0, func(y float64) string {
		return fmt.Sprintf("M%d %.1f C%d %.1f %d %.1f %d %.1f", mapSideW, y, mapSideW+12, y, mapCenterX-12, mid, mapCenterX, mid)
	})
	m.Out = place(out, mapRightX, func(y float64) string {
		return fmt.Sprintf("M%d %.1f C%d %.1f %d %.1f %d %.1f", mapCenterX+mapSideW, mid, mapCenterX+mapSideW+12, mid, mapRightX-12, y, mapRightX, y)
	})
	for i := range m.In {
		m.In[i].TextX = 6
	}
	for i := range m.Out {
		m.Out[i].TextX = mapRightX + 6
	}
	m.MoreY = float64(mapTop+rows*mapRowH) + 8
	m.H = int(m.MoreY) + 4
	if m.MoreIn > 0 || m.MoreOut > 0 {
		m.H += 6
	}
	m.Label = fmt.Sprintf("%s: %s link here, it links to %s", title,
		plural(len(m.In)+m.MoreIn, "note", "notes"), plural(len(m.Out)+m.MoreOut, "note", "notes"))
	return m
}

// cmpTitle is a note's title, or its name when it has none.
func cmpTitle(title, p string) string {
	if strings.TrimSpace(title) != "" {
		return title
	}
	return path.Base(p)
}

// titleLines breaks a title into at most lines lines of width characters
// at spaces, the last cut with an ellipsis when it does not fit.
func titleLines(title string, width, lines int) []string {
	var out []string
	cur := ""
	for _, w := range strings.Fields(title) {
		switch {
		case cur == "":
			cur = w
		case len([]rune(cur))+1+len([]rune(w)) <= width:
			cur += " " + w
		default:
			out = append(out, cur)
			cur = w
		}
	}
	out = append(out, cur)
	if len(out) > lines {
		out[lines-1] = strings.Join(out[lines-1:], " ")
		out = out[:lines]
	}
	for i := range out {
		out[i] = wordEllipsis(out[i], width)
	}
	return out
}

// wordEllipsis cuts s to n characters at a space, the last an ellipsis,
// so that a label does not end in half a word; at the n-th character when
// a word takes more than half of them.
func wordEllipsis(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	for i := n - 1; i > n/2; i-- {
		if r[i] == ' ' {
			return strings.TrimRight(string(r[:i]), " ,;:-–—") + "…"
		}
	}
	return ellipsis(s, n)
}
