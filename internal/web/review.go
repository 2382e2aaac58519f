package web

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

// Review marks are the wiki's (wiki.Wiki.ReviewMarks and Review): git
// notes, which travel with git push and sync. A page marks a commit
// reviewed or flagged, or clears its mark, in the reviewer's name.

// review marks a commit reviewed or flagged, or clears its mark.
func (h *Handler) review(w http.ResponseWriter, r *http.Request) {
	if h.opts.ReadOnly {
		h.refuse(w, r, http.StatusForbidden, "this wiki is served read-only: nothing can be marked")
		return
	}
	c, ok := h.commitOf(w, r)
	if !ok {
		return
	}
	who, ok := h.actor(w, r)
	if !ok {
		return
	}
	req := wiki.ReviewRequest{Commits: []string{c.ID}, By: who, Replace: true}
	switch state := r.PostFormValue("state"); state {
	case "reviewed", "flagged":
		req.State = wiki.ReviewState(state)
	case "clear":
	default:
		h.fail(w, r, wiki.Errorf(wiki.CodeInvalidParams, "state %q: want reviewed, flagged or clear", state))
		return
	}
	if err := h.w.Review(r.Context(), req); err != nil {
		h.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/commit/"+c.ID, http.StatusSeeOther)
}

// maxReviewAll bounds the commits one review-all form marks: a session
// on one page of the timeline has at most changesLimit.
const maxReviewAll = 100

// reviewAll marks reviewed every commit a session's form lists (commit,
// repeated), all or none: a commit that does not resolve or already has a
// mark refuses the whole form, and a failure part way takes the marks made
// back. It returns to the timeline (back, its query).
func (h *Handler) reviewAll(w http.ResponseWriter, r *http.Request) {
	if h.opts.ReadOnly {
		h.refuse(w, r, http.StatusForbidden, "this wiki is served read-only: nothing can be marked")
		return
	}
	if state := r.PostFormValue("state"); state != "reviewed" {
		h.fail(w, r, wiki.Errorf(wiki.CodeInvalidParams, "state %q: a session can only be marked reviewed", state))
		return
	}
	shas := r.PostForm["commit"]
	if len(shas) == 0 || len(shas) > maxReviewAll {
		h.fail(w, r, wiki.Errorf(wiki.CodeInvalidParams, "%d commits: mark 1 to %d at a time; nothing was marked", len(shas), maxReviewAll))
		return
	}
	ids := make([]string, len(shas))
	for i, sha := range shas {
		c, err := h.w.Commit(r.Context(), sha)
		if err != nil {
			h.fail(w, r, wiki.Errorf(wiki.CodeNotFound, "no commit %q: nothing was marked", sha))
			return
		}
		ids[i] = c.ID
	}
	marks, err := h.w.ReviewMarks(r.Context(), ids)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	for _, id := range ids {
		if m, ok := marks[id]; ok {
			h.refuse(w, r, http.StatusConflict, fmt.Sprintf("commit %.10s is already marked %s by %s: reload the page; nothing was marked", id, m.State, m.By))
			return
		}
	}
	who, ok := h.actor(w, r)
	if !ok {
		return
	}
	// Without Replace: a mark made meanwhile fails the form rather than
	// being overwritten, and the marks made are taken back.
	if err := h.w.Review(r.Context(), wiki.ReviewRequest{Commits: ids, State: wiki.Reviewed, By: who}); err != nil {
		h.fail(w, r, err)
		return
	}
	back := r.PostFormValue("back")
	if !strings.HasPrefix(back, "?") || strings.ContainsAny(back, "\r\n") {
		back = ""
	}
	http.Redirect(w, r, "/"+back, http.StatusSeeOther)
}

// revertPage previews the revert of a commit, or shows why it cannot be.
type revertPage struct {
	Commit   string
	Subject  string
	Summary  string
	Risk     string
	Files    []fileDiff
	Conflict string
	CSRF     string
	// Reviewer is who the undo would be by; NoReviewer, why nobody.
	Reviewer, NoReviewer string
}

// revert previews the revert of a commit as a diff, with a button to make
// it; with confirm set, it makes it, as one commit by the reviewer through
// the same core as revert_change, its Wiki-Tool the page's own action,
// authored and committed by the reviewer. A
// conflict is shown and nothing is committed.
func (h *Handler) revert(w http.ResponseWriter, r *http.Request) {
	if h.opts.ReadOnly {
		h.refuse(w, r, http.StatusForbidden, "this wiki is served read-only: nothing can be undone")
		return
	}
	c, ok := h.commitOf(w, r)
	if !ok {
		return
	}
	caller := wiki.Caller{Client: client, Tool: toolUndo}
	confirm := r.PostFormValue("confirm") == "yes"
	if confirm {
		if caller.Author, ok = h.actor(w, r); !ok {
			return
		}
	}
	// The person undoes: author and committer, as their marks are theirs.
	m := wiki.Mutation{DryRun: !confirm, Caller: caller, Committer: caller.Author}
	res, err := h.w.Revert(r.Context(), wiki.RevertRequest{Commit: c.ID, Mutation: m})
	var e *wiki.Error
	if errors.As(err, &e) && e.Code == wiki.CodeConflict {
		w.WriteHeader(http.StatusConflict)
		h.render(w, r, "revert.html", revertPage{Commit: c.ID, Subject: c.Subject, Conflict: explain(e)})
		return
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if confirm {
		http.Redirect(w, r, "/commit/"+res.Commit, http.StatusSeeOther)
		return
	}
	page := revertPage{Commit: c.ID, Subject: c.Subject, Summary: res.Summary, Risk: res.Risk,
		Files: fileDiffs(res.Files), CSRF: h.csrf(r)}
	page.Reviewer, page.NoReviewer = h.reviewerLine()
	h.render(w, r, "revert.html", page)
}
