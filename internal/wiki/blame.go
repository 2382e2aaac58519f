package wiki

import (
	"bytes"
	"context"
	"time"

	"github.com/wikid/wikid/internal/note"
)

// BlameRequest asks who last changed each line of a note at HEAD.
type BlameRequest struct {
	Path string
	// Section limits the answer to one section (heading text, or
	// Parent/Child), heading line included.
	Section string
}

// BlameResult is a note's lines grouped into runs changed by one commit.
type BlameResult struct {
	Path    string
	File    string
	Commit  string // HEAD
	Version string // the note's version at HEAD
	Section string
	// Lines is the number of lines covered: the note's, or the section's.
	Lines  int
	Ranges []BlameEntry
}

// BlameEntry is a run of lines last changed by one commit.
type BlameEntry struct {
	// Start and End are the first and last line (1-based, inclusive) at
	// HEAD.
	Start   int
	End     int
	Commit  string
	Short   string
	Author  string
	Date    time.Time // the author date
	Subject string
	// Client and Tool are the commit's Wiki-Client and Wiki-Tool trailers:
	// who made it through wikid, and by what; "" for a commit made
	// without wikid.
	Client, Tool string
	// OldPath is the note's path in that commit when it was renamed since.
	OldPath string
	// OriginUnknown is set when the note's older version that might have
	// had these lines is missing from the repository (a partial clone):
	// this commit or an earlier one last changed them.
	OriginUnknown bool
}

// Blame returns, for every line of a note (or of one of its sections), the
// commit that last changed it, as `git blame` assigns them: renames are
// followed, and a merge hands a line to the parent it came from. It
// returns INVALID_PATH, NOT_FOUND (no such note or section) and AMBIGUOUS
// (a section path matching several headings).
func (w *Wiki) Blame(ctx context.Context, req BlameRequest) (*BlameResult, error) {
	head, err := w.syncHistory(ctx)
	if err != nil {
		return nil, err
	}
	snap, err := w.store.Snapshot(ctx, head.Commit)
	if err != nil {
		return nil, err
	}
	notePath, ext, err := note.CleanPath(req.Path)
	if err != nil {
		return nil, err
	}
	f, n, err := w.readNote(ctx, snap, notePath, ext)
	if err != nil {
		return nil, err
	}
	res := &BlameResult{Path: n.Path, File: f.Path, Commit: head.Commit, Version: f.Blob, Ranges: []BlameEntry{}}
	first, last := 1, lineCount(n.Raw)
	if req.Section != "" {
		h, err := n.Section(req.Section)
		if err != nil {
			return nil, err
		}
		res.Section = h.Text
		first = 1 + bytes.Count(n.Raw[:h.Start], []byte{'\n'})
		last = first + lineCount(n.Raw[h.Start:h.End]) - 1
	}
	res.Lines = last - first + 1
	ranges, err := w.hist.Blame(ctx, head.Commit, f.Path)
	if err != nil {
		return nil, err
	}
	for _, r := range ranges {
		start, end := max(r.Start, first), min(r.Start+r.Lines-1, last)
		if start > end {
			continue
		}
		e := BlameEntry{Start: start, End: end, Commit: r.Commit.ID, Short: shortID(r.Commit.ID),
			Author: who(r.Commit.Author), Date: r.Commit.Author.When, Subject: r.Commit.Subject,
			Client: r.Commit.Client, Tool: r.Commit.Tool, OriginUnknown: r.OriginUnknown}
		if r.File != f.Path {
			e.OldPath = notePathOf(r.File)
		}
		res.Ranges = append(res.Ranges, e)
	}
	return res, nil
}

// lineCount is the number of lines of b, a last line without a newline
// included.
func lineCount(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}
