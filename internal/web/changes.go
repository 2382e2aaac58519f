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
	Total   int
	Next    string
}

// changesLimit is how many commits a page of the timeline shows.
const changesLimit = 50

// changes serves the timeline, filtered by the query's author, tool,
// folder, since and until, a page at a time (cursor).
func (h *Handler) changes(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := map[string]string{}
	for _, k := range []string{"author", "tool", "folder", "since", "until", "cursor"} {
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
	res, err := h.w.Activity(r.Context(), req)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.render(w, r, "changes.html", changesPage{Filters: f, Commits: res.Commits, Total: res.Total, Next: res.NextCursor})
}
