package wiki

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/note"
)

// History list limits: how many commits a page holds unless asked, and at
// most.
const (
	DefaultHistoryLimit = 50
	MaxHistoryLimit     = 100
)

// HistoryRequest asks for the commits that changed a note.
type HistoryRequest struct {
	// Path is the note, which may no longer exist.
	Path string
	// NoFollow lists only the commits of the note's current path; by
	// default the history follows the note across renames.
	NoFollow bool
	// Limit is how many commits a page holds: default DefaultHistoryLimit,
	// at most MaxHistoryLimit.
	Limit  int
	Cursor string
}

// HistoryResult is one page of a note's history, newest first.
type HistoryResult struct {
	Path string
	File string
	// Exists is false for a note that was deleted.
	Exists     bool
	Revisions  []HistoryEntry
	Total      int
	NextCursor string
}

// HistoryEntry is one commit of a note's history.
type HistoryEntry struct {
	Commit  string
	Short   string
	Date    time.Time // the author date, as git log shows it
	Author  string
	Subject string
	Change  ChangeKind
	// Path is the note's path in this commit; OldPath its path before a
	// rename.
	Path    string
	OldPath string
	// Version is the note's version after the commit ("" when deleted).
	Version   string
	Additions int
	Deletions int
	// LinesUnknown is set, with Additions and Deletions 0, when a version
	// the counts need is missing from the repository (a partial clone).
	LinesUnknown bool
	// RenameUnknown is set on an addition when a missing version kept
	// rename detection to equal content: it may be a rename, and the
	// history may go on under an older path.
	RenameUnknown bool
	Tool          string
	Client        string
}

// history returns the commits that changed a note, newest first: with
// renames followed as `git log --follow` lists them, else as `git log --
// file` does. A deleted note has a history too. It returns INVALID_PATH,
// INVALID_PARAMS (a bad limit or cursor) and NOT_FOUND when there is no
// such note now and none in the history.
func (w *Wiki) history(ctx context.Context, req HistoryRequest) (*HistoryResult, error) {
	limit, err := pageLimit(req.Limit, DefaultHistoryLimit, MaxHistoryLimit)
	if err != nil {
		return nil, err
	}
	head, err := w.syncHistory(ctx)
	if err != nil {
		return nil, err
	}
	notePath, file, exists, err := w.historyFile(ctx, head.Commit, req.Path)
	if err != nil {
		return nil, err
	}
	revs, err := w.hist.Log(ctx, head.Commit, file, !req.NoFollow)
	if err != nil {
		return nil, err
	}
	scope := cursorScope{"history", file, req.NoFollow}
	pos, err := scope.open(req.Cursor)
	if err != nil {
		return nil, err
	}
	start := 0
	if pos != "" {
		if start, err = cursorStart(pos, len(revs), func(i int) string { return revs[i].ID }); err != nil {
			return nil, err
		}
	}
	res := &HistoryResult{Path: notePath, File: file, Exists: exists, Total: len(revs), Revisions: []HistoryEntry{}}
	for i := start; i < len(revs) && len(res.Revisions) < limit; i++ {
		res.Revisions = append(res.Revisions, historyEntry(revs[i]))
	}
	if end := start + len(res.Revisions); end < len(revs) {
		res.NextCursor = scope.seal(commitCursor(revs[end-1].ID))
	}
	return res, nil
}

func historyEntry(r Revision) HistoryEntry {
	e := HistoryEntry{
		Commit: r.ID, Short: shortID(r.ID), Date: r.Author.When, Author: who(r.Author),
		Subject: r.Subject, Change: r.Kind, Path: notePathOf(r.Path), Version: r.NewBlob,
		Additions: r.Additions, Deletions: r.Deletions, Tool: r.Tool, Client: r.Client,
		LinesUnknown: r.LinesUnknown, RenameUnknown: r.RenameUnknown,
	}
	if r.OldPath != "" {
		e.OldPath = notePathOf(r.OldPath)
	}
	return e
}

// historyFile returns the note path and file a history tool works on: the
// note at head (with the case-insensitive fallback), or, for a note that no
// longer exists, the file of that name, with any markdown extension and in
// any normalization form (see note.Spellings), that has a history. It returns INVALID_PATH and NOT_FOUND.
func (w *Wiki) historyFile(ctx context.Context, head, path string) (notePath, file string, exists bool, err error) {
	notePath, ext, err := note.CleanPath(path)
	if err != nil {
		return "", "", false, err
	}
	if head == "" {
		return "", "", false, Errorf(CodeNotFound, "no note %q: the wiki has no commits yet", notePath)
	}
	snap, err := w.store.Snapshot(ctx, head)
	if err != nil {
		return "", "", false, err
	}
	f, err := w.locate(ctx, snap, notePath, ext)
	if err == nil {
		return notePathOf(f.Path), f.Path, true, nil
	}
	if !errors.Is(err, ErrNotFound) {
		return "", "", false, err
	}
	exts := noteExts
	if ext != "" {
		exts = []string{ext}
	}
	// A note committed from macOS, with its name or a folder in another
	// normalization form than the caller's, is found under that spelling.
	for _, p := range note.Spellings(notePath) {
		for _, e := range exts {
			file := note.FileName(p, e)
			revs, err := w.hist.Log(ctx, head, file, false)
			if err != nil {
				return "", "", false, err
			}
			if len(revs) > 0 {
				return p, file, false, nil
			}
		}
	}
	return "", "", false, Errorf(CodeNotFound, "no note %q, now or in the history", notePath).
		WithHint("check the path (case matters for deleted notes); {activity} lists the paths commits changed")
}

// commitCursor is the opaque cursor after a commit of a list.
func commitCursor(id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte("after:" + id))
}

// decodeCommitCursor returns the commit a cursor points after.
func decodeCommitCursor(s string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	id, ok := strings.CutPrefix(string(b), "after:")
	if err != nil || !ok || len(id) != 40 {
		return "", Errorf(CodeInvalidParams, "bad cursor").
			WithHint("pass the {next_cursor} of the previous page unchanged, or omit it to start over")
	}
	return id, nil
}

// cursorStart returns the index after the cursor's commit in a list of n
// commits, or INVALID_PARAMS when the list no longer holds it.
func cursorStart(cursor string, n int, id func(int) string) (int, error) {
	after, err := decodeCommitCursor(cursor)
	if err != nil {
		return 0, err
	}
	for i := range n {
		if id(i) == after {
			return i + 1, nil
		}
	}
	return 0, Errorf(CodeInvalidParams, "the cursor's commit %s is no longer in the list", shortID(after)).
		WithHint("history was rewritten since the last page; start over without a {cursor}")
}
