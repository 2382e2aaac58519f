package wiki

import (
	"context"
	"time"
)

// History is the per-path history index: for every file, the commits that
// changed it, built once from the commits' tree diffs and extended by every
// new commit, whoever made it. It is derived state under Store.Dir(): it can
// be deleted at any time and is rebuilt from the commits. As a DerivedStore
// it follows HEAD: Apply adds the commits reachable from u.To that it does
// not hold (taking the update's changes as the diff of a single commit),
// and, when the commit it was at is no longer in u.To's history (history
// was rewritten), drops every commit u.To cannot reach; interrupted by ctx,
// it keeps what it added and stays usable. The queries take the head to
// answer at, which it must have been brought to before; they answer as the
// git CLI would at that commit. Its times are the notes' git dates, which
// a search by date passes to the search index (SearchRequest.GitDates).
// Implementations are safe for concurrent use.
type History interface {
	DerivedStore
	// Log returns the commits of head's history that changed file, newest
	// first, as `git log --follow -- file` lists them with follow (renames
	// followed, merges left out) and as `git log -- file` lists them
	// without (history simplification: a merge is followed only into a
	// parent with the same content, and shown when it has none). It returns
	// an error wrapping ErrNotFound when head was never synced.
	Log(ctx context.Context, head, file string, follow bool) ([]Revision, error)
	// Commits returns a page of the commits reachable from head, newest
	// first as `git log` lists them, that match filter: at most limit of
	// them after commit `after` ("" for the newest), how many match in all,
	// and the last commit of the page when more follow ("" otherwise). It
	// returns an error wrapping ErrNotFound when head was never synced
	// or after is not in head's history.
	Commits(ctx context.Context, head string, filter CommitFilter, after string, limit int) (page []ChangeSet, total int, next string, err error)
	// Blame returns who last changed each line of file at head, as line
	// ranges in order, as `git blame` assigns them (renames followed, no
	// copy detection; where repeated lines make several line diffs equally
	// short, git may pick another). It returns an error wrapping
	// ErrNotFound when file does not exist at head or head was never
	// synced.
	Blame(ctx context.Context, head, file string) ([]BlameRange, error)
	// Times returns when each of files, as it is at head, was created and
	// last changed: the committer times of the oldest and the newest commit
	// of `git log --follow -- file`. Files without history are left out.
	// With files nil, it answers for every file whose last such commit did
	// not delete it: the files at head, but for one deleted or added by a
	// merge alone.
	Times(ctx context.Context, head string, files []string) (map[string]FileTimes, error)
	// Renames pairs the deleted and added files of changes (as Store.Changes
	// returns them) the way `git diff` detects renames by default: equal
	// content first, then at least 50% similar content. It returns the old
	// path of every added file that is a rename.
	Renames(ctx context.Context, changes []FileChange) (map[string]string, error)
	// MissingObjects returns how many distinct objects the commits it holds
	// refer to and the repository lacks (a partial clone, a damaged
	// repository).
	MissingObjects() int
	// Close releases the index.
	Close(ctx context.Context) error
}

// ChangeKind says what a commit did to a file.
type ChangeKind string

// The change kinds.
const (
	ChangeAdded    ChangeKind = "added"
	ChangeModified ChangeKind = "modified"
	ChangeDeleted  ChangeKind = "deleted"
	ChangeRenamed  ChangeKind = "renamed"
)

// CommitSummary is what the history index keeps of a commit.
type CommitSummary struct {
	ID        string
	Parents   []string
	Author    Signature
	Committer Signature
	// Subject is the first paragraph of the message on one line, as git's
	// %s shows it.
	Subject string
	// Tool and Client are the Wiki-Tool and Wiki-Client trailers; "" when
	// the commit was not made by wikid.
	Tool, Client string
	// FilesUnknown is set when a tree the commit's diff needs is missing
	// from the repository (a treeless partial clone): the files it changed
	// are unknown, and it is in no file's history.
	FilesUnknown bool
}

// FileRevision is what one commit did to one file, compared with the
// commit's first parent.
type FileRevision struct {
	Path string // the file after the change (before it, for a deletion)
	// OldPath is the file's path before a rename; "" otherwise.
	OldPath          string
	Kind             ChangeKind
	OldBlob, NewBlob string // "" when absent
	// Additions and Deletions count lines as `git diff --numstat` does
	// (against OldPath for a rename); both are -1 for a binary file.
	Additions, Deletions int
	// LinesUnknown is set, with Additions and Deletions 0, when a version
	// the counts need is missing from the repository (a partial clone).
	LinesUnknown bool
	// RenameUnknown is set on an added file when a missing version kept
	// rename detection to equal content: it may be a rename all the same.
	RenameUnknown bool
}

// Revision is one commit in the history of a file.
type Revision struct {
	CommitSummary
	FileRevision
}

// ChangeSet is one commit and the files it changed.
type ChangeSet struct {
	CommitSummary
	Files []FileRevision
}

// CommitFilter selects commits; the zero filter selects all of them.
type CommitFilter struct {
	// Since and Until bound the committer time, inclusive; zero is open.
	Since, Until time.Time
	// Author matches "Name <email>" case-insensitively, as a substring.
	Author string
	// Tool is the Wiki-Tool trailer, exactly.
	Tool string
	// Client is the Wiki-Client trailer's client, with or without its
	// version: "cursor" keeps the commits of "cursor/1.2" too.
	Client string
	// Folder keeps commits that changed a file under it ("" for any).
	Folder string
	// Files keeps commits that changed one of these files (none: any).
	Files []string
}

// BlameRange is a run of lines that one commit last changed.
type BlameRange struct {
	// Start is the 1-based number of the first line at head; Lines how
	// many lines the range holds.
	Start, Lines int
	Commit       CommitSummary
	// File is the file's path in that commit (another one across a rename),
	// and OrigStart the range's first line there.
	File      string
	OrigStart int
	// OriginUnknown is set when a parent's version of the file that might
	// have had these lines is missing from the repository (a partial
	// clone): Commit or an earlier commit last changed them.
	OriginUnknown bool
}

// FileTimes are when a file was created and last changed, and by which
// commit.
type FileTimes struct {
	Created, Modified time.Time
	// Commit and Author are the newest commit's.
	Commit string
	Author Signature
}

// syncHistory brings the history index to HEAD and returns HEAD.
func (w *Wiki) syncHistory(ctx context.Context) (Head, error) {
	return w.await(ctx, w.historyLane)
}

// syncHistoryTo brings the history index to commit, HEAD or an ancestor.
func (w *Wiki) syncHistoryTo(ctx context.Context, commit string) error {
	return w.awaitCommit(ctx, w.historyLane, commit)
}

// shortID is the abbreviated commit id the history tools show, as git's
// default abbreviation does.
func shortID(id string) string {
	if len(id) > 7 {
		return id[:7]
	}
	return id
}

// who formats a signature as "Name <email>".
func who(s Signature) string { return s.Name + " <" + s.Email + ">" }
