package web

import (
	"net/http"

	"github.com/wikid/wikid/internal/textdiff"
	"github.com/wikid/wikid/internal/wiki"
)

// commitPage is one commit: its message, trailers and the diff of every
// file it changed.
type commitPage struct {
	Commit *wiki.CommitResult
	// Files are the commit's files, each with its diff to show; Rewrites
	// the notes whose only change is links rewritten to the notes it
	// renamed.
	Files, Rewrites []changedFile
	Stats           *wiki.DiffResult
	Mark            *wiki.ReviewMark
	CSRF            string
	ReadOnly        bool
	// Reviewer is who a mark or an undo would be by; NoReviewer, why
	// nobody.
	Reviewer, NoReviewer string
}

// fileDiff is the diff of one file, as lines to show.
type fileDiff struct {
	Header string
	Lines  []diffLine
}

// diffLine is a line of a diff: its kind ("add", "del", "ctx", "hunk") and
// its text in parts, the changed words of a changed line marked.
type diffLine struct {
	Kind  string
	Parts []part
}

type part struct {
	Text    string
	Changed bool
}

// commitOf reads the commit the request's {sha} names; it answers the
// request itself and returns false when it cannot.
func (h *Handler) commitOf(w http.ResponseWriter, r *http.Request) (*wiki.CommitResult, bool) {
	c, err := h.w.Commit(r.Context(), r.PathValue("sha"))
	if err != nil {
		h.fail(w, r, err)
		return nil, false
	}
	return c, true
}

// commit serves a commit's page.
func (h *Handler) commit(w http.ResponseWriter, r *http.Request) {
	c, ok := h.commitOf(w, r)
	if !ok {
		return
	}
	res, err := h.w.Diff(r.Context(), wiki.DiffRequest{To: c.ID})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	page := commitPage{Commit: c, Stats: res, CSRF: h.csrf(r), ReadOnly: h.opts.ReadOnly}
	page.Files, page.Rewrites = commitFiles(res.Files)
	if !h.opts.ReadOnly {
		page.Reviewer, page.NoReviewer = h.reviewerLine()
	}
	marks, err := h.w.ReviewMarks(r.Context(), []string{c.ID})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if m, ok := marks[c.ID]; ok {
		page.Mark = &m
	}
	h.render(w, r, "commit.html", page)
}

// fileDiffs returns the diffs to show of the files that have lines to
// show.
func fileDiffs(files []wiki.DiffFile) []fileDiff {
	var out []fileDiff
	for _, f := range files {
		if len(f.Hunks) > 0 {
			out = append(out, fileDiff{Header: fileName(f), Lines: diffLines(f.Hunks)})
		}
	}
	return out
}

// fileName names the file of a diff as a person reads it: its path, or
// "old → new" for a rename.
func fileName(f wiki.DiffFile) string {
	if f.OldFile != "" && f.OldFile != f.File {
		return f.OldFile + " → " + f.File
	}
	return f.File
}

// diffLines returns the lines that show hunks: each one's header, then its
// lines, marking the changed words of a block of deleted lines followed
// by as many added ones.
func diffLines(hunks []wiki.DiffHunk) []diffLine {
	var out []diffLine
	for _, h := range hunks {
		out = append(out, diffLine{Kind: "hunk", Parts: []part{{Text: h.Header()}}})
		ls := h.Lines
		for i := 0; i < len(ls); i++ {
			switch ls[i].Kind {
			case wiki.LineContext:
				out = append(out, diffLine{Kind: "ctx", Parts: []part{{Text: ls[i].Text}}})
			case wiki.LineAdded:
				out = append(out, diffLine{Kind: "add", Parts: []part{{Text: ls[i].Text}}})
			case wiki.LineDeleted:
				// A block of deleted lines, and the added lines after it.
				j := i
				for j < len(ls) && ls[j].Kind == wiki.LineDeleted {
					j++
				}
				k := j
				for k < len(ls) && ls[k].Kind == wiki.LineAdded {
					k++
				}
				del, add := ls[i:j], ls[j:k]
				if len(del) == len(add) {
					for n := range del {
						d, a := wordDiff(del[n].Text, add[n].Text)
						out = append(out, diffLine{Kind: "del", Parts: d}, diffLine{Kind: "add", Parts: a})
					}
					// Deleted then added, pair by pair, reads best as all
					// the deleted lines, then all the added ones.
					reorder(out[len(out)-2*len(del):])
				} else {
					for _, x := range del {
						out = append(out, diffLine{Kind: "del", Parts: []part{{Text: x.Text}}})
					}
					for _, x := range add {
						out = append(out, diffLine{Kind: "add", Parts: []part{{Text: x.Text}}})
					}
				}
				i = k - 1
			}
		}
	}
	return out
}

// reorder turns del, add, del, add, ... into del, del, ..., add, add, ....
func reorder(pairs []diffLine) {
	n := len(pairs) / 2
	out := make([]diffLine, 0, len(pairs))
	for i := 0; i < n; i++ {
		out = append(out, pairs[2*i])
	}
	for i := 0; i < n; i++ {
		out = append(out, pairs[2*i+1])
	}
	copy(pairs, out)
}

// wordDiff returns the parts of an old and a new line, the words that
// differ marked.
func wordDiff(old, new string) (oldParts, newParts []part) {
	for _, p := range textdiff.Words(old, new) {
		switch p.Op {
		case textdiff.WordEqual:
			oldParts = append(oldParts, part{Text: p.Text})
			newParts = append(newParts, part{Text: p.Text})
		case textdiff.WordDeleted:
			oldParts = append(oldParts, part{Text: p.Text, Changed: true})
		case textdiff.WordInserted:
			newParts = append(newParts, part{Text: p.Text, Changed: true})
		}
	}
	return oldParts, newParts
}
