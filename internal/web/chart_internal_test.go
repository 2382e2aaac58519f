package web

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestNewDayChart(t *testing.T) {
	start := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	var entries []dayEntry
	add := func(day, n int, series string) {
		for range n {
			entries = append(entries, dayEntry{Day: day, Series: series})
		}
	}
	add(0, 3, "claude-code")
	add(0, 1, "people")
	add(4, 2, "people")
	add(29, 5, "claude-code")
	add(29, 1, "codex")
	add(30, 7, "codex") // after the period: left out
	c := newDayChart(start, 30, entries)

	t.Run("summary", func(t *testing.T) {
		if want := "12 changes in 30 days; claude-code 8, people 3, codex 1"; c.Label != want {
			t.Errorf("label %q, want %q", c.Label, want)
		}
		if c.Empty != "" || c.Max != 6 || c.Start != "2026-03-01" || c.End != "2026-03-30" {
			t.Errorf("empty %q, max %d, %s to %s", c.Empty, c.Max, c.Start, c.End)
		}
	})
	t.Run("legend order", func(t *testing.T) {
		var names []string
		for _, s := range c.Legend {
			names = append(names, s.Name)
		}
		if want := []string{"claude-code", "people", "codex"}; !slices.Equal(names, want) {
			t.Errorf("legend %v, want %v", names, want)
		}
		if c.Legend[1].Class != "speople" {
			t.Errorf("people are drawn as %q, want their own colour", c.Legend[1].Class)
		}
	})
	t.Run("bars sum to counts", func(t *testing.T) {
		if len(c.Bars) != 30 {
			t.Fatalf("%d bars, want one a day", len(c.Bars))
		}
		want := map[int]int{0: 4, 4: 2, 29: 6}
		for d, b := range c.Bars {
			if b.Total != want[d] {
				t.Errorf("day %d: %d changes, want %d", d, b.Total, want[d])
			}
			h, y := 0.0, float64(chartBase)
			for _, s := range b.Segs {
				if math.Abs(s.Y+s.H-y) > 1e-9 {
					t.Errorf("day %d: segment %s at %.2f does not sit on the one below (%.2f)", d, s.Class, s.Y+s.H, y)
				}
				y, h = s.Y, h+s.H
			}
			if wantH := float64(want[d]) / 6 * chartPlotH; math.Abs(h-wantH) > 1e-9 {
				t.Errorf("day %d: bar %.2f high, want %.2f", d, h, wantH)
			}
			if b.X < chartPlotX || b.X+b.W > chartW+1e-9 || b.W <= 0 {
				t.Errorf("day %d: bar from %.2f to %.2f, outside the plot", d, b.X, b.X+b.W)
			}
		}
		if !strings.Contains(c.Bars[0].Title, "4 changes (claude-code 3, people 1)") {
			t.Errorf("first bar's title %q", c.Bars[0].Title)
		}
	})
	t.Run("empty period", func(t *testing.T) {
		e := newDayChart(start, 30, []dayEntry{{Day: 31, Series: "people"}})
		if e.Empty != "No changes in these 30 days." || len(e.Bars) != 0 {
			t.Errorf("empty chart: %q, %d bars", e.Empty, len(e.Bars))
		}
	})
	t.Run("other", func(t *testing.T) {
		var many []dayEntry
		for i, s := range []string{"a", "b", "c", "d", "e", "f", "g"} {
			for range 10 - i {
				many = append(many, dayEntry{Day: 0, Series: s})
			}
		}
		o := newDayChart(start, 1, many)
		if n := len(o.Legend); n != chartMaxSeries+1 || o.Legend[n-1].Name != "other" || o.Legend[n-1].Count != 5+4 {
			t.Errorf("legend %+v, want five series and other 9", o.Legend)
		}
	})
}

func TestNewFolderChart(t *testing.T) {
	c := newFolderChart(map[string]int{"projects": 10, "areas": 5, "journal": 5, "a": 1, "b": 1, "c": 1, "a-folder-with-a-long-name": 2})
	var names []string
	for _, r := range c.Rows {
		names = append(names, r.Name)
		if r.BarX+r.W > chartW-20 {
			t.Errorf("%s: the bar ends at %.0f, leaving no room for its count", r.Name, r.BarX+r.W)
		}
	}
	if want := []string{"projects", "areas", "journal", "a-folder-with-a-long-name", "a", "other"}; !slices.Equal(names, want) {
		t.Errorf("rows %v, want %v", names, want)
	}
	if c.Rows[5].Count != 2 || c.Rows[0].W != folderBarW || c.Rows[3].Label != "a-folder-with-a-…" {
		t.Errorf("rows %+v", c.Rows)
	}
	if e := newFolderChart(nil); e.Empty == "" || len(e.Rows) != 0 {
		t.Errorf("no folders: %+v", e)
	}
}
