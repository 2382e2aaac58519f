package web

import (
	"net/http"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/wikid/wikid/internal/wiki"
)

// commitPage is one commit: its message, trailers and the diff of every
// file it changed.
type commitPage struct {
	Commit   wiki.CommitInfo
	Subject  string
	Body     string
	Trailers [][2]string
	// Files are the commit's files, each with its diff to show; Rewrites
	// the notes whose only change is links rewritten to the notes it
	// renamed.
	Files, Rewrites []changedFile
	Stats           *wiki.DiffResult
	Mark            *mark
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

// commitOf resolves the request's {sha} to a commit and reads it; it
// answers the request itself and returns false when it cannot.
func (h *Handler) commitOf(w http.ResponseWriter, r *http.Request) (string, wiki.CommitInfo, bool) {
	sha := r.PathValue("sha")
	id, err := h.w.Store().ResolveRevision(r.Context(), sha)
	if err != nil {
		h.fail(w, r, wiki.Errorf(wiki.CodeNotFound, "no commit %q", sha))
		return "", wiki.CommitInfo{}, false
	}
	info, err := h.w.Store().CommitInfo(r.Context(), id)
	if err != nil {
		h.fail(w, r, err)
		return "", wiki.CommitInfo{}, false
	}
	return id, info, true
}

// commit serves a commit's page.
func (h *Handler) commit(w http.ResponseWriter, r *http.Request) {
	id, info, ok := h.commitOf(w, r)
	if !ok {
		return
	}
	res, err := h.w.Diff(r.Context(), wiki.DiffRequest{To: id})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	page := commitPage{Commit: info, Stats: res, CSRF: h.csrf(r), ReadOnly: h.opts.ReadOnly}
	page.Files, page.Rewrites = commitFiles(res)
	page.Subject, page.Body, page.Trailers = splitMessage(info.Message)
	if !h.opts.ReadOnly {
		page.Reviewer, page.NoReviewer = h.reviewerLine()
	}
	marks, err := h.marks(r.Context(), []string{id})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if m, ok := marks[id]; ok {
		page.Mark = &m
	}
	h.render(w, r, "commit.html", page)
}

// splitMessage splits a commit message into its subject, body and the
// trailers of its last paragraph (Key: value lines).
func splitMessage(msg string) (subject, body string, trailers [][2]string) {
	msg = strings.TrimRight(msg, "\n")
	subject, body, _ = strings.Cut(msg, "\n")
	body = strings.TrimSpace(body)
	paras := strings.Split(body, "\n\n")
	last := paras[len(paras)-1]
	var ts [][2]string
	for _, line := range strings.Split(last, "\n") {
		k, v, ok := strings.Cut(line, ": ")
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			return subject, body, nil
		}
		ts = append(ts, [2]string{k, v})
	}
	if len(ts) == 0 {
		return subject, body, nil
	}
	return subject, strings.TrimSpace(strings.Join(paras[:len(paras)-1], "\n\n")), ts
}

// parseUnified splits a unified diff into its files and lines, marking
// the changed words of a block of removed lines followed by as many added
// ones.
func parseUnified(diff string) []fileDiff {
	var files []fileDiff
	var cur *fileDiff
	lines := strings.Split(strings.TrimSuffix(diff, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "diff --git "):
			files = append(files, fileDiff{Header: diffHeader(strings.TrimPrefix(l, "diff --git "))})
			cur = &files[len(files)-1]
		case cur == nil:
		case strings.HasPrefix(l, "@@"):
			cur.Lines = append(cur.Lines, diffLine{Kind: "hunk", Parts: []part{{Text: l}}})
		case strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "--- "):
			// A block of removed lines, and the added lines after it.
			j := i
			for j < len(lines) && strings.HasPrefix(lines[j], "-") && !strings.HasPrefix(lines[j], "--- ") {
				j++
			}
			k := j
			for k < len(lines) && strings.HasPrefix(lines[k], "+") && !strings.HasPrefix(lines[k], "+++ ") {
				k++
			}
			del, add := lines[i:j], lines[j:k]
			if len(del) == len(add) {
				for n := range del {
					d, a := wordDiff(del[n][1:], add[n][1:])
					cur.Lines = append(cur.Lines, diffLine{Kind: "del", Parts: d}, diffLine{Kind: "add", Parts: a})
				}
				// Removed then added, pair by pair, reads best as all the
				// removed lines, then all the added ones.
				reorder(cur.Lines[len(cur.Lines)-2*len(del):])
			} else {
				for _, x := range del {
					cur.Lines = append(cur.Lines, diffLine{Kind: "del", Parts: []part{{Text: x[1:]}}})
				}
				for _, x := range add {
					cur.Lines = append(cur.Lines, diffLine{Kind: "add", Parts: []part{{Text: x[1:]}}})
				}
			}
			i = k - 1
		case strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++ "):
			cur.Lines = append(cur.Lines, diffLine{Kind: "add", Parts: []part{{Text: l[1:]}}})
		case strings.HasPrefix(l, " "):
			cur.Lines = append(cur.Lines, diffLine{Kind: "ctx", Parts: []part{{Text: l[1:]}}})
		}
	}
	return files
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
	dmp := diffmatchpatch.New()
	a, b, words := dmp.DiffLinesToRunes(splitWords(old), splitWords(new))
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(a, b, false), words)
	for _, d := range diffs {
		d.Text = strings.ReplaceAll(d.Text, "\n", "") // the separators of splitWords
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			oldParts = append(oldParts, part{Text: d.Text})
			newParts = append(newParts, part{Text: d.Text})
		case diffmatchpatch.DiffDelete:
			oldParts = append(oldParts, part{Text: d.Text, Changed: true})
		case diffmatchpatch.DiffInsert:
			newParts = append(newParts, part{Text: d.Text, Changed: true})
		}
	}
	return oldParts, newParts
}

// splitWords puts each word and each run of other characters on a line of
// its own, so that a line diff of the result is a word diff.
func splitWords(s string) string {
	var b strings.Builder
	word := -1 // 1 in a word, 0 outside, -1 at the start
	for _, r := range s {
		w := 0
		if r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127 {
			w = 1
		}
		if word != -1 && w != word || w == 0 && word == 0 {
			b.WriteByte('\n')
		}
		b.WriteRune(r)
		word = w
	}
	return b.String()
}

// diffHeader names the file of a diff's "a/x b/y" header as a person
// reads it: its path, or "old → new" for a rename.
func diffHeader(h string) string {
	rest, ok := strings.CutPrefix(h, "a/")
	if !ok {
		return h
	}
	if n := (len(rest) - 3) / 2; n > 0 && len(rest) == 2*n+3 && rest[n:n+3] == " b/" && rest[:n] == rest[n+3:] {
		return rest[:n]
	}
	if old, now, ok := strings.Cut(rest, " b/"); ok {
		return old + " → " + now
	}
	return h
}
