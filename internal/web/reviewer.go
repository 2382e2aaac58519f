package web

import (
	"net/http"

	"github.com/wikid/wikid/internal/wiki"
)

// client is the Wiki-Client of the commits the pages make: a person's
// undos and restores, never an assistant's work.
const client = "wikid-web"

// noReviewer says why nothing can be marked, undone or restored, and how
// to name the reviewer.
const noReviewer = `no reviewer is set, so nothing can be marked, undone or restored: ` +
	`set yours with git config user.name "Your Name" and git config user.email you@example.com ` +
	`(add --global for every repository), or name one in .wikid.yaml with review: (name: and email:)`

// reviewer returns who the pages' marks, undos and restores are by:
// Options.Reviewer, else the person git names for the repository (its
// user.name and user.email, else the global ones), read at each request.
// It returns the zero Identity when neither names one, with an error when
// a git configuration file cannot be read.
func (h *Handler) reviewer() (wiki.Identity, error) {
	if h.opts.Reviewer != (wiki.Identity{}) {
		return h.opts.Reviewer, nil
	}
	return h.w.UserIdentity(h.opts.Getenv)
}

// reviewerLine says on a page who a mark or an undo would be recorded as,
// or why nobody is.
func (h *Handler) reviewerLine() (who, why string) {
	id, err := h.reviewer()
	switch {
	case err != nil:
		return "", noReviewer + " (" + err.Error() + ")"
	case id == (wiki.Identity{}):
		return "", noReviewer
	}
	return id.String(), ""
}

// actor returns the person a change the request asks for is by; without
// one it refuses the request, saying how to name one, and returns false.
func (h *Handler) actor(w http.ResponseWriter, r *http.Request) (wiki.Identity, bool) {
	id, err := h.reviewer()
	if id != (wiki.Identity{}) {
		return id, true
	}
	why := noReviewer
	if err != nil {
		why += " (" + err.Error() + ")"
	}
	h.refuse(w, r, http.StatusConflict, why)
	return wiki.Identity{}, false
}

// assistantWork reports whether a commit is an assistant's, to review: one
// an MCP client made, not one without wikid's trailers (a person's, with
// git) nor a person's undo or restore through the pages.
func assistantWork(c wiki.ActivityEntry) bool {
	return c.Client != "" && c.Client != client
}
