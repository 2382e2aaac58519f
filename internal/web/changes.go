package web

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

// changesPage is the timeline: the wiki's commits, newest first, filtered,
// in sessions.
type changesPage struct {
	Filters map[string]string
	Commits []wiki.ActivityEntry
	Groups  []session
	Marks   map[string]wiki.ReviewMark
	// Undone maps each listed commit that was undone to its undo.
	Undone map[string]string
	Total  int
	Next   string
	// CSRF is the token of the sessions' review forms; ReadOnly hides them.
	CSRF     string
	ReadOnly bool
	Chart    *changesChart // the picture of the period, drawn in chart.go
}

// A session is a run of consecutive commits on the timeline: an
// assistant's (the same MCP client, each commit within sessionGap of the
// next), or people's.
type session struct {
	Client  string // the Wiki-Client trailer; empty for people's commits
	Commits []wiki.ActivityEntry
	// Unmarked are the commits without a review mark, nor undone, which
	// the session's review button marks; Undone counts the undone ones.
	Unmarked []string
	Undone   int
}

// Anchor is the session's id on the page, where its review form brings
// the reviewer back to.
func (s session) Anchor() string { return "s-" + s.Commits[0].Commit }

// sessionGap is the longest pause between two commits of one session.
const sessionGap = 30 * time.Minute

// First and Last are the times of the session's oldest and newest commits.
func (s session) First() time.Time { return s.Commits[len(s.Commits)-1].Date }
func (s session) Last() time.Time  { return s.Commits[0].Date }

// sessions groups commits, newest first, into sessions.
func sessions(commits []wiki.ActivityEntry, marks map[string]wiki.ReviewMark, undone map[string]string) []session {
	var out []session
	for _, c := range commits {
		cl := ""
		if assistantWork(c) {
			cl = c.Client
		}
		if n := len(out); n == 0 || out[n-1].Client != cl ||
			(cl != "" && out[n-1].Commits[len(out[n-1].Commits)-1].Date.Sub(c.Date) > sessionGap) {
			out = append(out, session{Client: cl})
		}
		s := &out[len(out)-1]
		s.Commits = append(s.Commits, c)
		if cl != "" && undone[c.Commit] != "" {
			s.Undone++
		}
		if cl != "" && marks[c.Commit].State == "" && undone[c.Commit] == "" {
			s.Unmarked = append(s.Unmarked, c.Commit)
		}
	}
	return out
}

// changesLimit is how many commits a page of the timeline shows.
const changesLimit = 50

// changes serves the timeline, filtered by the query's author, client,
// tool, folder, since and until, a page at a time (cursor); with
// unreviewed, only the assistants' work still to review (unmarked or
// flagged, not undone), with flagged only the flagged commits.
func (h *Handler) changes(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := map[string]string{}
	for _, k := range []string{"author", "client", "tool", "folder", "since", "until", "cursor", "unreviewed", "flagged"} {
		f[k] = strings.TrimSpace(q.Get(k))
	}
	req := wiki.ActivityRequest{Author: f["author"], Client: f["client"], Tool: f["tool"], Folder: f["folder"], Limit: changesLimit, Cursor: f["cursor"]}
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
	page := changesPage{Filters: f, Marks: map[string]wiki.ReviewMark{}, Undone: map[string]string{}}
	// Only what is to review, or flagged: gathered over up to 20 pages of
	// the log. The undos of the commits listed are newer than they are:
	// on the first page of the whole log, among those read before them.
	filtered := f["unreviewed"] != "" || f["flagged"] != ""
	seen := undos{}
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
		marks, err := h.w.ReviewMarks(r.Context(), ids)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		seen.note(res.Commits)
		for _, c := range res.Commits {
			if f["unreviewed"] != "" && !toReview(c, marks[c.Commit], seen.of(c) != "") ||
				f["flagged"] != "" && marks[c.Commit].State != wiki.Flagged {
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
	if n := len(page.Commits); n > 0 && (f["cursor"] != "" || req.Author != "" || req.Client != "" || req.Tool != "" || req.Folder != "") {
		seen.noteSince(h, r, page.Commits[n-1].Date)
	}
	for _, c := range page.Commits {
		if u := seen.of(c); u != "" {
			page.Undone[c.Commit] = u
		}
	}
	if f["unreviewed"] != "" {
		page.Commits = slices.DeleteFunc(page.Commits, func(c wiki.ActivityEntry) bool { return page.Undone[c.Commit] != "" })
	}
	page.Groups = sessions(page.Commits, page.Marks, page.Undone)
	page.CSRF, page.ReadOnly = h.csrf(r), h.opts.ReadOnly
	page.Chart = h.changesChart(r, page)
	h.render(w, r, "changes.html", page)
}

// span is the time of a session: "2024-06-01 14:02–14:31", or both dates
// and times when it crosses midnight.
func (h *Handler) span(s session) string {
	first, last := h.whenAny(s.First()), h.whenAny(s.Last())
	switch {
	case first == last:
		return first
	case first[:10] == last[:10]:
		return first + "–" + last[11:]
	}
	return first + " – " + last
}

// badge is the short name of the MCP client that made a commit, for its
// badge: "mcp" when the author is named after the client, else the client
// without its version; empty for a person's commit.
func badge(c wiki.ActivityEntry) string {
	if !assistantWork(c) {
		return ""
	}
	cl, _, _ := strings.Cut(c.Client, "/")
	if strings.EqualFold(cl, name(c.Author)) {
		return "mcp"
	}
	return cl
}

// fileCount is how many files a commit changed.
func fileCount(c wiki.ActivityEntry) int { return len(c.Files) + c.MoreFiles }
