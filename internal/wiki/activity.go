package wiki

import (
	"context"
	"time"

	"github.com/wikid/wikid/internal/note"
)

// Activity limits: commits per page unless asked, and at most; files
// listed per commit.
const (
	DefaultActivityLimit = 20
	MaxActivityLimit     = 100
	maxActivityFiles     = 50
)

// ActivityRequest filters the wiki's commits; every filter given must
// match.
type ActivityRequest struct {
	// Since and Until bound the commit time, inclusive.
	Since, Until time.Time
	// Author matches "Name <email>" case-insensitively, as a substring.
	Author string
	// Folder and Path keep the commits that changed a note under the
	// folder, or the note (by its path, renames not followed).
	Folder, Path string
	// Tool is the wikid tool that made the commit (Wiki-Tool trailer).
	Tool string
	// Client is the MCP client that made it (Wiki-Client trailer), with
	// or without its version: "cursor" keeps "cursor/1.2" too.
	Client string
	Limit  int
	Cursor string
}

// ActivityResult is one page of the wiki's commits, newest first.
type ActivityResult struct {
	Commits    []ActivityEntry
	Total      int
	NextCursor string
}

// ActivityEntry is one commit.
type ActivityEntry struct {
	Commit string
	Short  string
	Date   time.Time // the author date
	Author string
	// Client and Tool come from the Wiki-Client and Wiki-Tool trailers;
	// empty for commits not made by wikid.
	Client  string
	Tool    string
	Subject string
	// Merge is set for a merge commit; its files are compared with its
	// first parent.
	Merge bool
	Files []ActivityFile
	// MoreFiles counts the files left out of Files.
	MoreFiles int
	// FilesUnknown is set, with Files empty, when a tree the commit's diff
	// needs is missing from the repository (a treeless partial clone).
	FilesUnknown bool
	Additions    int
	Deletions    int
	// LinesUnknown is set when some file's line counts are unknown (a
	// version is missing from the repository): Additions and Deletions
	// count the other files only.
	LinesUnknown bool
}

// ActivityFile is a file a commit changed.
type ActivityFile struct {
	// Path is the note path (the file for a file that is not a note).
	Path      string
	OldPath   string
	Change    ChangeKind
	Additions int
	Deletions int
	// LinesUnknown is set, with Additions and Deletions 0, when a version
	// the counts need is missing from the repository (a partial clone).
	LinesUnknown bool
	// RenameUnknown is set on an addition when a missing version kept
	// rename detection to equal content: it may be a rename.
	RenameUnknown bool
}

// Activity returns the wiki's commits, newest first as `git log` lists
// them (merges included), with who made them, with which client and tool,
// the files they changed and their line counts. It returns INVALID_PATH
// (a bad folder or path) and INVALID_PARAMS (a bad limit or cursor, since
// after until).
func (w *Wiki) Activity(ctx context.Context, req ActivityRequest) (*ActivityResult, error) {
	limit, err := pageLimit(req.Limit, DefaultActivityLimit, MaxActivityLimit)
	if err != nil {
		return nil, err
	}
	if !req.Since.IsZero() && !req.Until.IsZero() && req.Until.Before(req.Since) {
		return nil, Errorf(CodeInvalidParams, "until %s is before since %s", req.Until.Format(time.RFC3339), req.Since.Format(time.RFC3339))
	}
	f := CommitFilter{Since: req.Since, Until: req.Until, Author: req.Author, Tool: req.Tool, Client: req.Client}
	if req.Folder != "" {
		if f.Folder, err = note.CleanFolder(req.Folder); err != nil {
			return nil, err
		}
	}
	if req.Path != "" {
		notePath, ext, err := note.CleanPath(req.Path)
		if err != nil {
			return nil, err
		}
		exts := noteExts
		if ext != "" {
			exts = []string{ext}
		}
		for _, e := range exts {
			f.Files = append(f.Files, note.FileName(notePath, e))
		}
	}
	scope := cursorScope{"activity", timeKey(req.Since), timeKey(req.Until), req.Author, f.Folder, f.Files, req.Tool}
	if req.Client != "" {
		scope = append(scope, req.Client) // the cursors of requests without one stay as they were
	}
	pos, err := scope.open(req.Cursor)
	if err != nil {
		return nil, err
	}
	after := ""
	if pos != "" {
		if after, err = decodeCommitCursor(pos); err != nil {
			return nil, err
		}
	}
	head, err := w.syncHistory(ctx)
	if err != nil {
		return nil, err
	}
	res := &ActivityResult{Commits: []ActivityEntry{}}
	if head.Commit == "" {
		return res, nil
	}
	page, total, next, err := w.hist.Commits(ctx, head.Commit, f, after, limit)
	if err != nil {
		if after != "" {
			return nil, Errorf(CodeInvalidParams, "the cursor's commit %s is no longer in the history", shortID(after)).
				WithHint("history was rewritten since the last page; start over without a {cursor}")
		}
		return nil, err
	}
	res.Total = total
	if next != "" {
		res.NextCursor = scope.seal(commitCursor(next))
	}
	for _, cs := range page {
		res.Commits = append(res.Commits, activityEntry(cs))
	}
	return res, nil
}

func activityEntry(cs ChangeSet) ActivityEntry {
	e := ActivityEntry{
		Commit: cs.ID, Short: shortID(cs.ID), Date: cs.Author.When, Author: who(cs.Author),
		Client: cs.Client, Tool: cs.Tool, Subject: cs.Subject, Merge: len(cs.Parents) > 1,
		Files: []ActivityFile{}, FilesUnknown: cs.FilesUnknown,
	}
	for _, f := range cs.Files {
		if f.Additions > 0 {
			e.Additions += f.Additions
		}
		if f.Deletions > 0 {
			e.Deletions += f.Deletions
		}
		e.LinesUnknown = e.LinesUnknown || f.LinesUnknown
		if len(e.Files) == maxActivityFiles {
			e.MoreFiles++
			continue
		}
		af := ActivityFile{Path: notePathOf(f.Path), Change: f.Kind, Additions: f.Additions, Deletions: f.Deletions,
			LinesUnknown: f.LinesUnknown, RenameUnknown: f.RenameUnknown}
		if f.OldPath != "" {
			af.OldPath = notePathOf(f.OldPath)
		}
		e.Files = append(e.Files, af)
	}
	return e
}
