package web

import (
	"net/http"
	"regexp"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

// undoSubject matches the subject wikid gives every undo, whichever front
// end made it: "revert: 1a2b3c4 the undone commit's subject".
var undoSubject = regexp.MustCompile(`^revert: ([0-9a-f]{7,40}) `)

// undos maps the short id of an undone commit to the commit that undid
// it, the newest undo when there are several.
type undos map[string]string

// note records the undos among commits, newest first.
func (u undos) note(commits []wiki.ActivityEntry) {
	for _, c := range commits {
		if m := undoSubject.FindStringSubmatch(c.Subject); m != nil {
			if _, ok := u[m[1][:7]]; !ok {
				u[m[1][:7]] = c.Commit
			}
		}
	}
}

// of returns the commit that undid c, "" when none did.
func (u undos) of(c wiki.ActivityEntry) string {
	if len(c.Commit) < 7 {
		return ""
	}
	return u[c.Commit[:7]]
}

// undoScanPages bounds the commits read for the undos of a filtered page
// or a later one: the undos of its commits are newer than they are, and
// most follow them within days.
const undoScanPages = 5

// noteSince records the undos among every commit since t, newest first, up
// to undoScanPages pages of the log: those a filtered page or a later one
// does not list.
func (u undos) noteSince(h *Handler, r *http.Request, t time.Time) {
	req := wiki.ActivityRequest{Since: t, Limit: wiki.MaxActivityLimit}
	for range undoScanPages {
		res, err := h.w.Activity(r.Context(), req)
		if err != nil {
			h.opts.Logger.WarnContext(r.Context(), "read the undos of the timeline", "err", err)
			return
		}
		u.note(res.Commits)
		if res.NextCursor == "" {
			return
		}
		req.Cursor = res.NextCursor
	}
}

// toReview reports whether a commit is an assistant's work still to be
// looked at: without a mark, or flagged, and not undone.
func toReview(c wiki.ActivityEntry, m wiki.ReviewMark, undone bool) bool {
	return assistantWork(c) && (m.State == "" || m.State == wiki.Flagged) && !undone
}
