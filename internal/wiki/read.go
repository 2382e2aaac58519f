package wiki

import (
	"context"
	"time"
	"unicode/utf8"

	"github.com/wikid/wikid/internal/note"
)

// DefaultMaxChars is how many characters a read returns unless asked for
// fewer or more.
const DefaultMaxChars = 10000

// ReadBacklinks is how many of the notes that link to a note a
// metadata-only read lists, with their lines: a hub's thousands would
// cost a read of each linking note, and a model's context.
const ReadBacklinks = 50

// ReadRequest reads a note, a section of it, or only its metadata.
type ReadRequest struct {
	Path string
	// Section is a heading text (first match at any level) or a
	// "Parent/Child" path; the content is that section, heading included.
	Section string
	// MetadataOnly returns frontmatter, title, tags and headings, no
	// content; at HEAD also the backlinks with their lines and context.
	MetadataOnly bool
	// Version is a revision (full or short sha, HEAD~N) to read at.
	Version string
	// Offset is the first character returned; MaxChars how many at most
	// (default DefaultMaxChars).
	Offset   int
	MaxChars int
}

// ReadResult is a note as read.
type ReadResult struct {
	Path       string
	File       string
	Title      string
	Tags       []string
	Aliases    []string
	Properties map[string]any
	// Dates are the frontmatter's dates, else git's.
	Dates
	// GitCreated and GitModified are git's dates where the frontmatter's
	// are shown in Dates (they would repeat them otherwise).
	GitCreated  *time.Time
	GitModified *time.Time
	Version     string
	// Commit is the last commit that changed the note, as of HEAD or the
	// version read ("" while the history index is still being built).
	Commit string
	// LocalChange says how the checked-out file differs from the version
	// shown (a read at HEAD of a checkout): "modified", "deleted", ...
	LocalChange string
	Headings    []HeadingInfo
	// Backlinks holds, for a metadata-only read at HEAD, the notes that
	// link to this one, each with its links' lines and context: the first
	// ReadBacklinks of them, by path.
	Backlinks []Backlink
	// MoreBacklinks counts the other notes that link to this one, which
	// get_links lists.
	MoreBacklinks int
	Section       string
	Content       string
	// BodyStart is the byte offset in Content where the note's body
	// starts, past its frontmatter: 0 for a section or a window that
	// starts past the frontmatter, len(Content) for one that ends within
	// it. Content[BodyStart:] is the body a front end renders.
	BodyStart int
	// Offset and TotalChars count characters of the content (the section's
	// when one was asked for); NextOffset continues a truncated read.
	Offset     int
	TotalChars int
	Truncated  bool
	NextOffset int
	Warnings   []string
}

// HeadingInfo is one heading of a note's outline.
type HeadingInfo struct {
	Level int
	Text  string
	Line  int
}

// Read returns a note. It returns INVALID_PATH, INVALID_PARAMS (negative
// offset or max_chars), NOT_FOUND (no such note, section or version) and
// AMBIGUOUS (a short version matching several commits, a section path
// matching several headings).
func (w *Wiki) Read(ctx context.Context, req ReadRequest) (*ReadResult, error) {
	if req.Offset < 0 || req.MaxChars < 0 {
		return nil, Errorf(CodeInvalidParams, "offset and max_chars must not be negative")
	}
	notePath, ext, err := note.CleanPath(req.Path)
	if err != nil {
		return nil, err
	}
	snap, err := w.snapshotAt(ctx, req.Version)
	if err != nil {
		return nil, err
	}
	atHead := req.Version == ""
	f, n, err := w.readNote(ctx, snap, notePath, ext)
	if err != nil {
		if atHead {
			err = w.uncommittedNote(ctx, snap.Commit(), notePath, ext, err)
		}
		return nil, err
	}
	res := describe(n, f)
	w.addGitDates(ctx, res, n, snap.Commit(), atHead)
	if atHead {
		res.LocalChange = w.checkoutChange(ctx, snap.Commit(), f.Path)
	}
	if req.MetadataOnly {
		if req.Version == "" {
			g, err := w.graphAt(ctx)
			if err != nil {
				return nil, err
			}
			res.Backlinks = g.BacklinksLined(n.Path, ReadBacklinks)
			if len(res.Backlinks) > ReadBacklinks {
				res.Backlinks, res.MoreBacklinks = res.Backlinks[:ReadBacklinks], len(res.Backlinks)-ReadBacklinks
			}
		}
		return res, nil
	}
	content := n.Raw
	if req.Section != "" {
		h, err := n.Section(req.Section)
		if err != nil {
			return nil, err
		}
		res.Section = h.Text
		content = n.Raw[h.Start:h.End]
	}
	max := req.MaxChars
	if max == 0 {
		max = DefaultMaxChars
	}
	res.Content, res.Offset, res.TotalChars, res.Truncated = window(content, req.Offset, max)
	res.BodyStart = bodyStart(n, req.Section != "", content, res.Offset, len(res.Content))
	if res.Truncated {
		res.NextOffset = res.Offset + utf8.RuneCountInString(res.Content)
	}
	return res, nil
}

// describe returns the metadata part of a read.
func describe(n *note.Note, f File) *ReadResult {
	res := &ReadResult{
		Path: n.Path, File: f.Path, Title: n.Title, Version: f.Blob,
		Tags: make([]string, len(n.Tags)), Aliases: n.Aliases, Properties: n.Properties,
	}
	for i, t := range n.Tags {
		res.Tags[i] = t.Name
	}
	for _, h := range n.Headings {
		res.Headings = append(res.Headings, HeadingInfo{Level: h.Level, Text: h.Text, Line: h.Line})
	}
	if n.FrontmatterErr != nil {
		res.Warnings = append(res.Warnings, "malformed frontmatter: "+n.FrontmatterErr.Error())
	}
	return res
}

// addGitDates sets a read's dates and last commit from git's history of
// the note as of commit, or warns that they are not known yet.
func (w *Wiki) addGitDates(ctx context.Context, res *ReadResult, n *note.Note, commit string, atHead bool) {
	times, known := w.gitTimes(ctx, commit, atHead, []string{res.File})
	t := times[res.File]
	res.Dates = noteDates(n, t)
	res.Commit = t.Commit
	if res.CreatedSource == DateFromFrontmatter && !t.Created.IsZero() {
		res.GitCreated = &t.Created
	}
	if res.ModifiedSource == DateFromFrontmatter && !t.Modified.IsZero() {
		res.GitModified = &t.Modified
	}
	if !known {
		res.Warnings = append(res.Warnings, Sayf("the history index is still being built: the note's last commit and its dates from git are not known yet; read it again shortly ({status} shows the progress)"))
	}
}

// window cuts content to at most max characters from offset. It returns the
// window, the offset actually used, the total number of characters and
// whether characters follow the window.
func window(content []byte, offset, max int) (string, int, int, bool) {
	total := utf8.RuneCount(content)
	if offset > total {
		offset = total
	}
	start := byteOffset(content, 0, offset)
	end := byteOffset(content, start, max)
	return string(content[start:end]), offset, total, end < len(content)
}

// byteOffset returns the byte offset n characters after from.
func byteOffset(b []byte, from, n int) int {
	i := from
	for ; n > 0 && i < len(b); n-- {
		_, size := utf8.DecodeRune(b[i:])
		i += size
	}
	return i
}
