package web

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"time"
)

// The charts are inline SVG drawn on the server: no script, scaled to the
// page's width by their viewBox. Their viewBox is about as wide as a phone
// (390 px less the page's margins), so that 11-unit text reads as 11 px
// there, and the page caps their width so that it grows at most by half.
const (
	chartW         = 360 // viewBox width
	chartPlotX     = 30  // left edge of the bars, after the max count
	chartTop       = 8   // top of the tallest bar
	chartPlotH     = 90  // height of the tallest bar
	chartBase      = chartTop + chartPlotH
	chartH         = chartBase + 18 // room for the dates under the bars
	chartMaxSeries = 5              // series named before "other"
	chartColours   = 8              // the colours of series, classes s0 … s7
	chartPeople    = "people"
	chartOther     = "other"
	folderRowH     = 18
	folderLabelW   = 110 // the folder's name, right-aligned before its bar
	folderBarW     = 200 // the longest bar; its count follows it
)

// dayEntry is one change on a day of a chart: the day (0 the first of the
// period) and the series it counts for (a client, "people", a folder).
type dayEntry struct {
	Day    int
	Series string
}

// dayChart is changes per day as stacked bars, one series a colour.
type dayChart struct {
	// Empty is the sentence shown instead when the period has no change.
	Empty string
	// Label summarises the chart for screen readers: "42 changes in 30
	// days; claude-code 30, people 12".
	Label, Title string
	W, H         int
	Bars         []chartBar
	Legend       []chartSeries
	// Max is the tallest bar's count, written at MaxY; the period's first
	// and last days are written under the bars' ends.
	Max            int
	MaxY, BaseY    float64
	PlotX, PlotEnd float64
	DateY          float64
	Start, End     string
	Total, Days    int
}

// chartSeries is one series of a chart, in its legend: its name, the
// class that colours it and its count over the period.
type chartSeries struct {
	Name, Class string
	Count       int
}

// chartBar is one day's bar: its segments bottom up, in legend order.
type chartBar struct {
	X, W  float64
	Total int
	Title string
	Segs  []chartSeg
}

// chartSeg is one series' part of a bar.
type chartSeg struct {
	Y, H  float64
	Class string
	Title string
}

// seriesOrder returns the series of counts in legend order, by count
// (most first) then name, the ones after the first chartMaxSeries folded
// into "other", which comes last; and the series each name is drawn as.
// Each series' colour stands for its name in every chart (seriesColours).
func seriesOrder(counts map[string]int) ([]chartSeries, map[string]string) {
	var all []chartSeries
	for name, n := range counts {
		all = append(all, chartSeries{Name: name, Count: n})
	}
	slices.SortFunc(all, func(a, b chartSeries) int {
		if a.Name == chartOther || b.Name == chartOther { // an "other" of the data's own goes last too
			return cmp.Compare(b2i(a.Name == chartOther), b2i(b.Name == chartOther))
		}
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Name, b.Name))
	})
	as := map[string]string{}
	var out []chartSeries
	other := chartSeries{Name: chartOther, Class: "sother"}
	for _, s := range all {
		if s.Name == chartOther || len(out) == chartMaxSeries {
			other.Count += s.Count
			as[s.Name] = chartOther
			continue
		}
		as[s.Name] = s.Name
		out = append(out, s)
	}
	names := make([]string, len(out))
	for i, s := range out {
		names[i] = s.Name
	}
	colours := seriesColours(names)
	for i := range out {
		out[i].Class = colours[out[i].Name]
	}
	if other.Count > 0 {
		out = append(out, other)
	}
	return out, as
}

// seriesColours gives each series its colour class: people theirs, a
// client the colour the hash of its name picks, so that a client keeps its
// colour from one view to the next, whatever its rank. Of two clients of a
// chart whose names pick the same colour, the first by name keeps it and
// the other takes the next one free.
func seriesColours(names []string) map[string]string {
	out := map[string]string{}
	var taken [chartColours]bool
	for _, n := range slices.Sorted(slices.Values(names)) {
		if n == chartPeople {
			out[n] = "speople"
			continue
		}
		h := fnv.New32a()
		h.Write([]byte(n))
		c := int(h.Sum32() % chartColours)
		for taken[c] {
			c = (c + 1) % chartColours
		}
		taken[c] = true
		out[n] = fmt.Sprintf("s%d", c)
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// newDayChart draws the entries of a period of days days from start as
// stacked bars, one a day; what names the changes ("changes") words the
// summary.
func newDayChart(start time.Time, days int, entries []dayEntry) *dayChart {
	c := &dayChart{W: chartW, H: chartH, Days: days, Title: "Changes per day"}
	if days < 1 {
		days = 1
	}
	counts := map[string]int{}
	for _, e := range entries {
		if e.Day >= 0 && e.Day < days {
			counts[e.Series]++
			c.Total++
		}
	}
	dayWord := plural(days, "day", "days")
	if c.Total == 0 {
		c.Empty = fmt.Sprintf("No changes in these %s.", dayWord)
		if days == 1 {
			c.Empty = "No changes on this day."
		}
		return c
	}
	legend, as := seriesOrder(counts)
	c.Legend = legend
	index := map[string]int{}
	for i, s := range legend {
		index[s.Name] = i
	}
	per := make([][]int, days)
	for d := range per {
		per[d] = make([]int, len(legend))
	}
	for _, e := range entries {
		if e.Day >= 0 && e.Day < days {
			per[e.Day][index[as[e.Series]]]++
		}
	}
	for _, p := range per {
		c.Max = max(c.Max, sum(p))
	}
	slot := float64(chartW-chartPlotX) / float64(days)
	gap := min(slot*0.2, 4)
	for d, p := range per {
		day := start.AddDate(0, 0, d)
		b := chartBar{X: chartPlotX + float64(d)*slot + gap/2, W: slot - gap, Total: sum(p)}
		var parts []string
		y := float64(chartBase)
		for i, n := range p {
			if n == 0 {
				continue
			}
			h := float64(n) / float64(c.Max) * chartPlotH
			y -= h
			b.Segs = append(b.Segs, chartSeg{Y: y, H: h, Class: legend[i].Class,
				Title: fmt.Sprintf("%s: %s %d", day.Format(time.DateOnly), legend[i].Name, n)})
			parts = append(parts, fmt.Sprintf("%s %d", legend[i].Name, n))
		}
		b.Title = fmt.Sprintf("%s: %s", day.Format(time.DateOnly), plural(b.Total, "change", "changes"))
		if len(parts) > 1 {
			b.Title += " (" + strings.Join(parts, ", ") + ")"
		}
		c.Bars = append(c.Bars, b)
	}
	c.PlotX, c.PlotEnd, c.BaseY, c.MaxY, c.DateY = chartPlotX, chartW, chartBase, chartTop, chartH-4
	c.Start, c.End = start.Format(time.DateOnly), start.AddDate(0, 0, days-1).Format(time.DateOnly)
	c.Label = fmt.Sprintf("%s in %s; %s", plural(c.Total, "change", "changes"), dayWord, seriesText(legend))
	return c
}

// folderChart is the changes of a period by top-level folder, as
// horizontal bars, most first.
type folderChart struct {
	Empty string
	Label string
	W, H  int
	Rows  []folderRow
}

// folderRow is a folder's bar.
type folderRow struct {
	Name, Label          string
	Count                int
	Y, TextY, W          float64
	LabelX, BarX, CountX float64
}

// newFolderChart draws how many changes touched each folder (a change
// counts once in each folder it touched), the top five and "other".
func newFolderChart(counts map[string]int) *folderChart {
	c := &folderChart{W: chartW}
	legend, _ := seriesOrder(counts)
	if len(legend) == 0 {
		c.Empty = "No notes changed in these days."
		return c
	}
	top := 0
	for _, s := range legend {
		top = max(top, s.Count)
	}
	for i, s := range legend {
		w := max(float64(s.Count)/float64(top)*folderBarW, 1)
		y := float64(i*folderRowH) + 2
		c.Rows = append(c.Rows, folderRow{Name: s.Name, Label: ellipsis(s.Name, 17), Count: s.Count, Y: y, TextY: y + 12, W: w,
			LabelX: folderLabelW, BarX: folderLabelW + 6, CountX: folderLabelW + 6 + w + 4})
	}
	c.H = len(legend)*folderRowH + 4
	c.Label = "Changes by folder: " + seriesText(legend)
	return c
}

// seriesText is "claude-code 30, people 12".
func seriesText(ss []chartSeries) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = fmt.Sprintf("%s %d", s.Name, s.Count)
	}
	return strings.Join(parts, ", ")
}

func sum(ns []int) int {
	t := 0
	for _, n := range ns {
		t += n
	}
	return t
}

// plural is "1 change" or "3 changes".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// ellipsis cuts s to n characters, the last an ellipsis.
func ellipsis(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
