package wiki

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/wikid/wikid/internal/note"
)

// Limits of FindBrokenLinks.
const (
	DefaultBrokenLimit = 50
	MaxBrokenLimit     = 500
)

// BrokenLinksRequest asks for the links that resolve to nothing.
type BrokenLinksRequest struct {
	// Folder restricts the notes whose links are checked; "" for all.
	Folder string
	// IncludeOrphans also lists the notes no other note links to (on the
	// first page).
	IncludeOrphans bool
	Limit          int
	Cursor         string
}

// BrokenLinksResult is one page of broken links, by note path and line.
type BrokenLinksResult struct {
	Links      []BrokenLink
	Total      int
	NextCursor string
	// Orphans holds at most Limit orphans, by path; OrphansTotal counts
	// them all.
	Orphans      []NoteRef
	OrphansTotal int
}

// FindBrokenLinks lists the links at HEAD that resolve to no note or file,
// or to a note without the heading they name, and with IncludeOrphans the
// notes nothing links to. It returns INVALID_PATH (a bad folder) and
// INVALID_PARAMS (a bad limit or cursor).
func (w *Wiki) FindBrokenLinks(ctx context.Context, req BrokenLinksRequest) (*BrokenLinksResult, error) {
	folder, err := note.CleanFolder(req.Folder)
	if err != nil {
		return nil, err
	}
	limit, err := pageLimit(req.Limit, DefaultBrokenLimit, MaxBrokenLimit)
	if err != nil {
		return nil, err
	}
	scope := cursorScope{"broken", folder}
	pos, err := scope.open(req.Cursor)
	if err != nil {
		return nil, err
	}
	var after *brokenCursor
	if pos != "" {
		if after, err = decodeBrokenCursor(pos); err != nil {
			return nil, err
		}
	}
	g, err := w.graphAt(ctx)
	if err != nil {
		return nil, err
	}
	var start, end int
	all := g.BrokenLinksPage(folder, func(all []BrokenLink) (int, int) {
		if after != nil {
			start = after.position(all)
		}
		end = min(len(all), start+limit)
		return start, end
	})
	res := &BrokenLinksResult{Links: all[start:end], Total: len(all)}
	if end < len(all) {
		res.NextCursor = scope.seal(encodeBrokenCursor(all[:end]))
	}
	if req.IncludeOrphans && after == nil {
		orphans := g.Orphans(folder)
		res.OrphansTotal = len(orphans)
		res.Orphans = orphans[:min(len(orphans), limit)]
	}
	return res, nil
}

// brokenCursor is the position after a page: the last note path listed
// and how many of its links were listed.
type brokenCursor struct {
	Path string
	N    int
}

// position returns the index in links of the first link after the cursor.
func (c *brokenCursor) position(links []BrokenLink) int {
	seen := 0
	for i, l := range links {
		switch {
		case l.Path < c.Path:
			continue
		case l.Path == c.Path && seen < c.N:
			seen++
			continue
		}
		return i
	}
	return len(links)
}

func encodeBrokenCursor(listed []BrokenLink) string {
	last := listed[len(listed)-1].Path
	n := 0
	for _, l := range listed {
		if l.Path == last {
			n++
		}
	}
	b, _ := json.Marshal(brokenCursor{Path: last, N: n})
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeBrokenCursor(s string) (*brokenCursor, error) {
	var c brokenCursor
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err != nil || c.Path == "" || c.N < 1 {
		return nil, Errorf(CodeInvalidParams, "bad cursor").
			WithHint("pass the {next_cursor} of the previous page unchanged, or omit it to start over")
	}
	return &c, nil
}

// CheckResult is what is wrong with a wiki's notes.
type CheckResult struct {
	BrokenLinks          []BrokenLink
	MalformedFrontmatter []MalformedNote
	// Orphans are notes no other note links to: worth a look, not an
	// error.
	Orphans []NoteRef
	// AmbiguousLinks are links whose bare name names several notes or files,
	// with the one the link resolves to: not an error either.
	AmbiguousLinks []AmbiguousLink
}

// MalformedNote is a note whose frontmatter does not parse.
type MalformedNote struct {
	Path string
	// Line is the line of the file the error is on, 0 when unknown.
	Line  int
	Error string
}

// OK reports whether nothing is wrong: no broken link and no malformed
// frontmatter.
func (r *CheckResult) OK() bool { return len(r.BrokenLinks) == 0 && len(r.MalformedFrontmatter) == 0 }

// Check looks at every note under folder at HEAD ("" for all) for broken
// links, frontmatter that does not parse, orphans, and links whose bare
// name names several notes. It returns
// INVALID_PATH for a bad folder, and an error when the repository cannot be
// read or the link graph cannot be brought to HEAD.
func (w *Wiki) Check(ctx context.Context, folder string) (*CheckResult, error) {
	folder, err := note.CleanFolder(folder)
	if err != nil {
		return nil, err
	}
	g, err := w.graphAt(ctx)
	if err != nil {
		return nil, err
	}
	snap, err := w.store.Snapshot(ctx, g.Commit())
	if err != nil {
		return nil, fmt.Errorf("check: %w", err)
	}
	files, err := snap.Files(ctx, folder)
	if err != nil {
		return nil, fmt.Errorf("check: %w", err)
	}
	res := &CheckResult{BrokenLinks: g.BrokenLinks(folder), Orphans: g.Orphans(folder), MalformedFrontmatter: []MalformedNote{},
		AmbiguousLinks: g.AmbiguousLinks(folder)}
	for _, f := range files {
		p, _, ok := note.SplitFileName(f.Path)
		if !ok {
			continue
		}
		f, content, err := snap.Read(ctx, f.Path)
		if err != nil {
			return nil, fmt.Errorf("check: read %s: %w", f.Path, err)
		}
		if n := w.parse(p, f, content); n.FrontmatterErr != nil {
			m := MalformedNote{Path: p, Error: n.FrontmatterErr.Error()}
			var ne *Error
			if errors.As(n.FrontmatterErr, &ne) {
				m.Line, m.Error = ne.Line, ne.Message
			}
			res.MalformedFrontmatter = append(res.MalformedFrontmatter, m)
		}
	}
	if res.BrokenLinks == nil {
		res.BrokenLinks = []BrokenLink{}
	}
	if res.Orphans == nil {
		res.Orphans = []NoteRef{}
	}
	if res.AmbiguousLinks == nil {
		res.AmbiguousLinks = []AmbiguousLink{}
	}
	return res, nil
}
