package web

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

// changesChart is the picture above the timeline: the changes of the
// period the page covers, per day by client, and by top-level folder.
type changesChart struct {
	ByClient *dayChart
	ByFolder *folderChart
	// Partial is set when the period held more changes than the chart
	// reads: it then starts at the first day it read whole.
	Partial bool
}

// chartDays is the longest period a chart covers; chartPages bounds the
// pages of the log it reads (chartPages × wiki.MaxActivityLimit commits).
const (
	chartDays  = 30
	chartPages = 10
)

// changesChart charts the period page covers: the filter's range, at most
// the chartDays days up to its until or to the newest commit listed. It
// reads the period's commits with the page's filters, a page of the log at
// a time up to chartPages, unless the page lists them all already; nil
// when there is nothing to chart or the log cannot be read (the page
// shows without it).
func (h *Handler) changesChart(r *http.Request, page changesPage) *changesChart {
	key, ok := chartKey(page)
	if ok {
		if c := h.charts.get(key); c != nil {
			return c
		}
	}
	c := h.drawChart(r, page)
	if ok && c != nil {
		h.charts.put(key, c)
	}
	return c
}

// chartKey returns what a page's chart depends on: its filters and the
// newest commit it lists, below which the history never changes. A page
// of unreviewed or flagged work has none, as its chart depends on the
// marks too.
func chartKey(page changesPage) (string, bool) {
	if len(page.Commits) == 0 || page.Filters["unreviewed"] != "" || page.Filters["flagged"] != "" {
		return "", false
	}
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(page.Filters)) {
		fmt.Fprintf(&b, "%s=%q ", k, page.Filters[k])
	}
	fmt.Fprintf(&b, "newest=%s next=%q", page.Commits[0].Commit, page.Next)
	return b.String(), true
}

// chartMemo keeps the charts drawn lately, by chartKey: a page viewed
// again, or by another person, draws none.
type chartMemo struct {
	mu     sync.Mutex
	charts map[string]*changesChart
}

// maxCharts bounds the charts a chartMemo keeps; past it, it starts over.
const maxCharts = 64

func (m *chartMemo) get(key string) *changesChart {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.charts[key]
}

func (m *chartMemo) put(key string, c *changesChart) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.charts == nil || len(m.charts) >= maxCharts {
		m.charts = map[string]*changesChart{}
	}
	m.charts[key] = c
}

// drawChart draws the chart of changesChart.
func (h *Handler) drawChart(r *http.Request, page changesPage) *changesChart {
	ctx := r.Context()
	loc := h.w.Options().Location
	f := page.Filters
	var since, until time.Time
	if f["since"] != "" {
		since, _, _ = h.w.ParseDate(f["since"])
	}
	if f["until"] != "" {
		_, until, _ = h.w.ParseDate(f["until"])
	}
	var end time.Time
	switch {
	case !until.IsZero():
		end = until
	case len(page.Commits) > 0:
		end = page.Commits[0].Date
	default:
		return nil
	}
	last := day(end.In(loc))
	first := last.AddDate(0, 0, 1-chartDays)
	if s := day(since.In(loc)); !since.IsZero() && s.After(first) {
		first = s
	}
	if first.After(last) {
		return nil
	}
	from, to := first, last.AddDate(0, 0, 1).Add(-time.Nanosecond)

	keep := func(c wiki.ActivityEntry) bool {
		cl := f["client"]
		return !c.Date.Before(from) && !c.Date.After(to) &&
			(cl == "" || c.Client == cl || strings.HasPrefix(c.Client, cl+"/"))
	}
	var commits []wiki.ActivityEntry
	partial := false
	undone := undos{}
	if n := len(page.Commits); f["cursor"] == "" && n > 0 && (page.Next == "" || page.Commits[n-1].Date.Before(from)) {
		// The page lists the whole period already.
		for _, c := range page.Commits {
			if keep(c) {
				commits = append(commits, c)
			}
		}
	} else {
		req := wiki.ActivityRequest{Author: f["author"], Client: f["client"], Tool: f["tool"], Folder: f["folder"], Since: from, Until: to, Limit: wiki.MaxActivityLimit}
		for p := 0; ; p++ {
			res, err := h.w.Activity(ctx, req)
			if err != nil {
				h.opts.Logger.WarnContext(ctx, "read the changes to chart", "err", err)
				return nil
			}
			undone.note(res.Commits)
			for _, c := range res.Commits {
				if keep(c) {
					commits = append(commits, c)
				}
			}
			if res.NextCursor == "" {
				break
			}
			if p+1 == chartPages {
				partial = true
				break
			}
			req.Cursor = res.NextCursor
		}
		if f["unreviewed"] != "" || f["flagged"] != "" {
			ids := make([]string, len(commits))
			for i, c := range commits {
				ids[i] = c.Commit
			}
			marks, err := h.w.ReviewMarks(ctx, ids)
			if err != nil {
				h.opts.Logger.WarnContext(ctx, "read the review marks to chart", "err", err)
				return nil
			}
			commits = slices.DeleteFunc(commits, func(c wiki.ActivityEntry) bool {
				if f["flagged"] != "" {
					return marks[c.Commit].State != wiki.Flagged
				}
				return !toReview(c, marks[c.Commit], page.Undone[c.Commit] != "" || undone.of(c) != "")
			})
		}
	}
	if f["unreviewed"] != "" {
		commits = slices.DeleteFunc(commits, func(c wiki.ActivityEntry) bool { return !assistantWork(c) })
	}
	if partial && len(commits) > 0 {
		// Newest first: the oldest day read may lack its earlier changes.
		first = day(commits[len(commits)-1].Date.In(loc)).AddDate(0, 0, 1)
		if first.After(last) {
			first = last
		}
	}
	days := int(last.Sub(first).Hours()/24+0.5) + 1
	var entries []dayEntry
	folders := map[string]int{}
	for _, c := range commits {
		d := int(day(c.Date.In(loc)).Sub(first).Hours()/24 + 0.5)
		if d < 0 || d >= days {
			continue
		}
		entries = append(entries, dayEntry{Day: d, Series: clientSeries(c)})
		seen := map[string]bool{}
		for _, file := range c.Files {
			top, _, ok := strings.Cut(file.Path, "/")
			if !ok {
				top = "(top level)"
			}
			if !seen[top] {
				seen[top] = true
				folders[top]++
			}
		}
	}
	return &changesChart{ByClient: newDayChart(first, days, entries), ByFolder: newFolderChart(folders), Partial: partial}
}

// clientSeries is the series a commit counts for: the assistant's
// client name without its version, or "people".
func clientSeries(c wiki.ActivityEntry) string {
	if !assistantWork(c) {
		return chartPeople
	}
	name, _, _ := strings.Cut(c.Client, "/")
	return name
}

// day is the midnight that starts t's day, in t's location.
func day(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}
