package web

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

// Proposals are an assistant's changes that wait for the person (see
// wiki.Proposal): the proposals page lists them, and a proposal's page
// shows each open note's change against the branch as it is now, with
// accept and reject per note, per hunk and for all. Decisions go through
// the wiki's AcceptProposal and RejectProposal, as wikid proposals does,
// by the reviewer, behind the same guard as every form (session, CSRF
// token, origin).

// proposalNotesPerPage is how many notes a proposal's page merges and
// diffs: a proposal of 100,000 notes is read a page at a time.
const proposalNotesPerPage = 50

// maxCountedNotes bounds the notes whose lines the proposals page counts
// for one proposal; a larger one says how many notes it has instead.
const maxCountedNotes = 500

// proposalRow is one proposal of the proposals page.
type proposalRow struct {
	wiki.ProposalSummary
	// Additions and Deletions count its lines, when Counted.
	Additions, Deletions int
	Counted              bool
}

// proposalsPage lists the open proposals, or the closed ones.
type proposalsPage struct {
	Rows   []proposalRow
	Closed bool
	// Other counts the proposals of the other list (closed or open).
	Other int
}

// proposals serves the list of open proposals, or with ?closed=1 the
// closed ones with their outcome, who and when.
func (h *Handler) proposals(w http.ResponseWriter, r *http.Request) {
	closed := r.URL.Query().Get("closed") != ""
	all, err := h.w.Proposals(r.Context(), true)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	page := proposalsPage{Closed: closed}
	for _, s := range all {
		if (s.Closed != "") != closed {
			page.Other++
			continue
		}
		row := proposalRow{ProposalSummary: s}
		if !closed {
			row.Additions, row.Deletions, row.Counted, err = h.w.ProposalLines(r.Context(), s.ID, maxCountedNotes)
			if err != nil && wiki.CodeOf(err) != wiki.CodeNotFound { // NOT_FOUND: decided meanwhile
				h.fail(w, r, err)
				return
			}
		}
		page.Rows = append(page.Rows, row)
	}
	h.render(w, r, "proposals.html", page)
}

// proposalPage is one open proposal, a page of its notes.
type proposalPage struct {
	*wiki.Proposal
	Notes []proposalNote
	// Page is the page's number from 1, Pages how many there are; First
	// and Last number the page's notes from 1, Prev and Next are the
	// pages before and after it (0: none).
	Page, Pages, First, Last, Prev, Next, PerPage int
	// Said words the decision just taken, "" when none.
	Said     string
	CSRF     string
	ReadOnly bool
	// Reviewer is who decisions are by; NoReviewer, why nobody.
	Reviewer, NoReviewer string
}

// proposalNote is one open note of a proposal, with its diff to show.
type proposalNote struct {
	wiki.ProposalNote
	Anchor string
	// Hunks are the note's hunks to show, each with its number for a
	// decision on it alone; ByHunk says whether they can be decided one
	// by one (a change of a note the branch has, that merges, in more
	// than one hunk).
	Hunks  []proposalHunk
	ByHunk bool
	// MovedTo is the note's new path when the proposal moved it without
	// changing it (its deletion and its creation shown as one); Files
	// the files a decision on it names, one a line.
	MovedTo, Files string
	// Rewrites are, for a move, the notes whose only change is links
	// rewritten to its new name: decided with it.
	Rewrites []proposalNote
}

// Kind words the change for the list: created, modified, deleted, moved.
func (n proposalNote) Kind() string {
	if n.MovedTo != "" {
		return "moved"
	}
	return string(n.Action)
}

type proposalHunk struct {
	N    int
	Diff fileDiff
}

// proposal serves a proposal's page: ?page=N is the N-th page of its
// open notes.
func (h *Handler) proposal(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	n, err := strconv.Atoi(r.URL.Query().Get("page"))
	if err != nil || n < 1 {
		n = 1
	}
	p, err := h.w.ProposalPage(r.Context(), wiki.ProposalPageRequest{ID: id, Offset: (n - 1) * proposalNotesPerPage, Limit: proposalNotesPerPage})
	if wiki.CodeOf(err) == wiki.CodeNotFound {
		if closed := h.closedProposal(r, id); closed != nil {
			http.Redirect(w, r, "/proposals?closed=1#"+url.PathEscape(id), http.StatusSeeOther)
			return
		}
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	page := proposalPage{Proposal: p, Page: n, Pages: max(1, (p.Open+proposalNotesPerPage-1)/proposalNotesPerPage),
		Said: said(r.URL.Query()), CSRF: h.csrf(r), ReadOnly: h.opts.ReadOnly, PerPage: proposalNotesPerPage,
		First: p.Offset + 1, Last: p.Offset + len(p.Notes)}
	if n > 1 {
		page.Prev = min(n-1, page.Pages)
	}
	if n < page.Pages {
		page.Next = n + 1
	}
	for i, pn := range p.Notes {
		note := proposalNote{ProposalNote: pn, Anchor: "note-" + strconv.Itoa(p.Offset+i+1)}
		note.ByHunk = pn.State == "ready" && pn.Action == wiki.ActionModified && len(pn.Hunks) > 1
		for k, hk := range pn.Hunks {
			note.Hunks = append(note.Hunks, proposalHunk{N: k + 1, Diff: fileDiff{Lines: diffLines([]wiki.DiffHunk{hk})}})
		}
		note.Files = pn.File
		page.Notes = append(page.Notes, note)
	}
	page.Notes = pairMoves(page.Notes)
	if !h.opts.ReadOnly {
		page.Reviewer, page.NoReviewer = h.reviewerLine()
	}
	h.render(w, r, "proposal.html", page)
}

// closedProposal returns closed proposal id, nil when there is none.
func (h *Handler) closedProposal(r *http.Request, id string) *wiki.ProposalSummary {
	all, err := h.w.Proposals(r.Context(), true)
	if err != nil {
		return nil
	}
	for _, s := range all {
		if s.ID == id && s.Closed != "" {
			return &s
		}
	}
	return nil
}

// decideProposal takes a decision from a proposal's page: the form's act
// is "accept" or "reject", then ":" and a hunk's number (or nothing), then
// ":" and a note's file (or nothing, for every open note); comment goes
// into the commit messages. It returns to the proposal's page, which says
// what was done, or to the closed proposals once none is open.
func (h *Handler) decideProposal(w http.ResponseWriter, r *http.Request) {
	if h.opts.ReadOnly {
		h.refuse(w, r, http.StatusForbidden, "this wiki is served read-only: nothing can be accepted or rejected")
		return
	}
	id := r.PathValue("id")
	verb, rest, _ := strings.Cut(r.PostFormValue("act"), ":")
	hunk, file, _ := strings.Cut(rest, ":")
	req := wiki.DecideRequest{ID: id, Comment: r.PostFormValue("comment")}
	if file != "" {
		// One file a line; a browser sends a button's line breaks as CRLF.
		req.Notes = strings.FieldsFunc(file, func(r rune) bool { return r == '\n' || r == '\r' })
	}
	if hunk != "" {
		n, err := strconv.Atoi(hunk)
		if err != nil || n < 1 || len(req.Notes) != 1 {
			h.fail(w, r, wiki.Errorf(wiki.CodeInvalidParams, "hunk %q of %q: want a number from 1 and a note", hunk, file))
			return
		}
		req.Hunk = n
	}
	decide := h.w.AcceptProposal
	switch verb {
	case "accept":
	case "reject":
		decide = h.w.RejectProposal
	default:
		h.fail(w, r, wiki.Errorf(wiki.CodeInvalidParams, "act %q: want accept or reject", verb))
		return
	}
	who, ok := h.actor(w, r)
	if !ok {
		return
	}
	req.By = who
	res, err := decide(r.Context(), req)
	if err != nil {
		var e *wiki.Error
		if errors.As(err, &e) && e.Code == wiki.CodeConflict {
			h.refuse(w, r, http.StatusConflict, explain(e))
			return
		}
		h.fail(w, r, err)
		return
	}
	if res.Closed != "" {
		http.Redirect(w, r, "/proposals?closed=1#"+url.PathEscape(id), http.StatusSeeOther)
		return
	}
	q := url.Values{"did": {verb}}
	if res.Hunk != "" {
		q.Set("hunk", res.Hunk)
		q.Set("in", file)
	}
	q.Set("notes", strconv.Itoa(len(res.Accepted)+len(res.Rejected)))
	q.Set("conflicts", strconv.Itoa(len(res.Conflicts)))
	if res.Commit != "" {
		q.Set("commit", res.Commit)
	}
	back := r.PostFormValue("page")
	if n, err := strconv.Atoi(back); err == nil && n > 1 {
		q.Set("page", back)
	}
	http.Redirect(w, r, "/proposals/"+url.PathEscape(id)+"?"+q.Encode(), http.StatusSeeOther)
}

// said words the decision a redirect's query reports, "" for none.
func said(q url.Values) string {
	past := map[string]string{"accept": "Accepted", "reject": "Rejected"}[q.Get("did")]
	if past == "" {
		return ""
	}
	var b strings.Builder
	if hunk := q.Get("hunk"); hunk != "" {
		fmt.Fprintf(&b, "%s the hunk %s of %s; its other hunks wait below.", past, hunk, q.Get("in"))
	} else if n, _ := strconv.Atoi(q.Get("notes")); n > 0 {
		fmt.Fprintf(&b, "%s %s.", past, plural(n, "note", "notes"))
	}
	if n, _ := strconv.Atoi(q.Get("conflicts")); n > 0 {
		fmt.Fprintf(&b, " %s could not be merged with the branch: nothing of %s was written, and %s open below.",
			plural(n, "note", "notes"), pick(n, "it", "them"), pick(n, "it stays", "they stay"))
	}
	if c := q.Get("commit"); c != "" {
		fmt.Fprintf(&b, " Committed %.7s.", c)
	}
	return strings.TrimSpace(b.String())
}

// pick is one when n is 1, else many.
func pick(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// pairMoves shows a note the proposal deleted and one it created with the
// same lines as one move, decided together; the notes of a move that were
// also edited, or that fall on two pages, stay apart.
func pairMoves(notes []proposalNote) []proposalNote {
	text := func(n proposalNote, kind wiki.LineKind) (string, bool) {
		var b strings.Builder
		for _, h := range n.ProposalNote.Hunks {
			for _, l := range h.Lines {
				if l.Kind != kind {
					return "", false
				}
				b.WriteString(l.Text + "\n")
			}
		}
		return b.String(), b.Len() > 0
	}
	created := map[string]int{} // text → index of the created note
	for i, n := range notes {
		if n.Action == wiki.ActionCreated && n.State == "ready" {
			if t, ok := text(n, wiki.LineAdded); ok {
				created[t] = i
			}
		}
	}
	gone := map[int]bool{}
	for i, n := range notes {
		if n.Action != wiki.ActionDeleted || n.State != "ready" {
			continue
		}
		t, ok := text(n, wiki.LineDeleted)
		j, found := created[t]
		if !ok || !found || gone[j] {
			continue
		}
		gone[j] = true
		notes[i].MovedTo, notes[i].Files = notes[j].Path, n.File+"\n"+notes[j].File
		notes[i].Hunks = nil
	}
	// The links rewritten for a move go with it.
	for i, n := range notes {
		if n.MovedTo == "" {
			continue
		}
		old := strings.TrimSuffix(n.File, path.Ext(n.File))
		names := []string{old, path.Base(old)}
		for j, m := range notes {
			if gone[j] || m.Action != wiki.ActionModified || m.State != "ready" || len(m.ProposalNote.Hunks) == 0 {
				continue
			}
			if onlyLinks(&fileDiff{Lines: diffLines(m.ProposalNote.Hunks)}, names) {
				gone[j] = true
				notes[i].Rewrites = append(notes[i].Rewrites, m)
				notes[i].Files += "\n" + m.File
			}
		}
	}
	out := notes[:0]
	for i, n := range notes {
		if !gone[i] {
			out = append(out, n)
		}
	}
	return out
}
