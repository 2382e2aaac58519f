package web

import (
	"net/http"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

// changesPage is the timeline: the wiki's commits, newest first, filtered.
type changesPage struct {
	Filters map[string]string
	Commits []wiki.ActivityEntry
	Marks   map[string]mark
	Total   int
	Next    string
	Chart   *changesChart // the picture of the period, drawn in chart.go
}

// changesLimit is how many commits a page of the timeline shows.
const changesLimit = 50

// changes serves the timeline, filtered by the query's author, tool,
// folder, since and until, a page at a time (cursor).
func (h *Handler) changes(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := map[string]string{}
	for _, k := range []string{"author", "client", "tool", "folder", "since", "until", "cursor", "unreviewed"} {
		f[k] = strings.TrimSpace(q.Get(k))
	}
	req := wiki.ActivityRequest{Author: f["author"], Tool: f["tool"], Folder: f["folder"], Limit: changesLimit, Cursor: f["cursor"]}
	var err error
	if f["since"] != "" {
		if req.Since, _, err = h.w.ParseDate(f["since"]); err != nil {
			h.fail(w, r, err)
			return
		}
	}
	if f["until"] != "" {
		var last time.Time
		if _, last, err = h.w.ParseDate(f["until"]); err != nil {
			h.fail(w, r, err)
			return
		}
		req.Until = last
	}
	page := changesPage{Filters: f, Marks: map[string]mark{}}
	// Only what is unreviewed (assistants' work without a mark), or
	// only one client's (its name, with or without its version): gathered
	// over up to 20 pages of the log.
	filtered := f["unreviewed"] != "" || f["client"] != ""
	for tries := 0; tries < 20; tries++ {
		res, err := h.w.Activity(r.Context(), req)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		ids := make([]string, len(res.Commits))
		for i, c := range res.Commits {
			ids[i] = c.Commit
		}
		marks, err := h.marks(r.Context(), ids)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		for _, c := range res.Commits {
			if f["unreviewed"] != "" && (!assistantWork(c) || marks[c.Commit].State != "") {
				continue
			}
			if cl := f["client"]; cl != "" && c.Client != cl && !strings.HasPrefix(c.Client, cl+"/") {
				continue
			}
			page.Commits = append(page.Commits, c)
			if m, ok := marks[c.Commit]; ok {
				page.Marks[c.Commit] = m
			}
		}
		page.Total, page.Next = res.Total, res.NextCursor
		if !filtered || len(page.Commits) >= changesLimit || res.NextCursor == "" {
			break
		}
		req.Cursor = res.NextCursor
	}
	page.Chart = h.changesChart(r, page)
	h.render(w, r, "changes.html", page)
}
