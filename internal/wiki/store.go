package wiki

import (
	"context"
	"time"
)

// Store is the git repository a wiki lives in: what the wiki reads of it
// (StoreReader) and the two ways it writes to it (StoreWriter). Commit ids
// and blob ids are full lowercase hex strings; "" means none (an unborn
// branch, a missing file). Implementations serialize their own access and
// are safe for concurrent use.
type Store interface {
	StoreReader
	StoreWriter
	// Close releases the repository.
	Close(ctx context.Context) error
}

// StoreReader is what the wiki reads of its repository: HEAD, trees,
// blobs, commits and their ancestry, the checkout's state, and where the
// derived state lives. None of its methods changes the repository.
type StoreReader interface {
	// Head returns the branch HEAD points at and its commit.
	Head(ctx context.Context) (Head, error)
	// ReleaseCaches empties what the store caches for long walks of the
	// history (decoded trees and objects), once they are over; the caches
	// fill again as reads need them.
	ReleaseCaches()
	// Snapshot returns the tree of a commit; "" is the empty tree.
	// It returns an error wrapping ErrNotFound for an unknown commit.
	Snapshot(ctx context.Context, commit string) (Snapshot, error)
	// ResolveRevision turns a full or short sha, "HEAD", "HEAD~N" or a branch
	// name into a commit id. A short sha matching several commits is
	// ErrAmbiguous; no match is ErrNotFound.
	ResolveRevision(ctx context.Context, rev string) (string, error)
	// CheckWorktree reports, for a checkout, whether any of the changed
	// files differs from its content at commit parent: modified, deleted,
	// or untracked where parent has none, unless it holds already what the
	// change writes. Such files fail with an *Error of code LOCAL_CHANGES
	// naming them, as Commit would. A bare repository always passes.
	CheckWorktree(ctx context.Context, parent string, files []FileChange) error
	// CheckoutChange reports how the checked-out file (repository-relative,
	// with extension) differs from its content at commit: "" when it does
	// not (always in a bare repository), else why ("modified", "deleted",
	// "untracked" when commit lacks it, ...).
	CheckoutChange(ctx context.Context, commit, file string) (string, error)
	// LocalChanges compares the files of a checkout that keep accepts with
	// commit, as `git status` does, naming at most max paths of each kind; it
	// reads a bounded number of directory entries and says when it stopped
	// short. A bare repository has none.
	LocalChanges(ctx context.Context, commit string, keep func(file string) bool, max int) (LocalChanges, error)
	// Changes lists the files that differ between two commits ("" is the
	// empty tree), sorted by path. Renames are reported as a delete and an
	// add.
	Changes(ctx context.Context, from, to string) ([]FileChange, error)
	// CommitInfo returns a commit's parents, signatures and message, or an
	// error wrapping ErrNotFound for an unknown commit.
	CommitInfo(ctx context.Context, commit string) (CommitInfo, error)
	// IsAncestor reports whether commit a is an ancestor of (or equal to) b.
	IsAncestor(ctx context.Context, a, b string) (bool, error)
	// MergeBase returns a best common ancestor of two commits, "" when
	// their histories share none.
	MergeBase(ctx context.Context, a, b string) (string, error)
	// ReadBlob returns the content of a blob by id, or an error wrapping
	// ErrNotFound when there is no such blob; a blob the repository
	// refers to but lacks (a partial clone) is a *MissingObjectError.
	ReadBlob(ctx context.Context, blob string) ([]byte, error)
	// Dir returns the directory for wikid's derived state: ".git/wikid" in a
	// checkout, "wikid" inside a bare repository. It is not created.
	Dir() string
	// GitDir returns the repository's git directory: the .git folder of a
	// checkout, the repository itself when it is bare.
	GitDir() string
	// Unwritable says why this user cannot change the repository, or ""
	// when they can.
	Unwritable() string
	// Blocked says why a commit would fail with LOCKED now (a git lock
	// file that wikid did not take), or "".
	Blocked(ctx context.Context) string
	// UserIdentity returns the person git would record as the author of a
	// commit made in the repository, read from getenv and git's
	// configuration files as git reads them; a name or an email found
	// nowhere stays empty. It returns an error naming a configuration file
	// that exists but cannot be read or parsed.
	UserIdentity(getenv func(string) string) (Identity, error)
	// ReviewNotes returns the note ReviewNotesRef holds for each of
	// commits (full ids) that has one, by commit id.
	ReviewNotes(ctx context.Context, commits []string) (map[string]string, error)
	// Refs returns the refs whose full names start with prefix
	// ("refs/wikid/proposals/"), loose or packed, with the commit each
	// points at.
	Refs(ctx context.Context, prefix string) (map[string]string, error)
}

// StoreWriter is how the wiki changes its repository: one commit a
// mutation, and the review marks on commits. Nothing else writes.
type StoreWriter interface {
	// Commit writes one commit with the changes on top of req.Parent and,
	// for a checkout, puts the touched files and their index entries in
	// place, then moves the branch to it with git's lock protocol, all under
	// the index lock. It checks the worktree like CheckWorktree before
	// writing anything. It lands completely or changes nothing: if the branch
	// no longer points at req.Parent it returns ErrHeadMoved; on a detached
	// HEAD it returns ErrDetached; when a disk is full or read-only, an
	// error of code NO_SPACE or READ_ONLY (see wikierr.FromOS). It sets
	// NewBlob of each of req.Changes that it writes to the content's blob
	// id.
	Commit(ctx context.Context, req CommitRequest) (string, error)
	// WriteReviewNotes changes the notes ReviewNotesRef holds for the
	// commits of req, all of them or, when one fails, none: the ref is put
	// back. Without req.Replace, a commit that has a note fails it with
	// an error of code CONFLICT.
	WriteReviewNotes(ctx context.Context, req ReviewNotesRequest) error
	// SetRef points ref, which must not be the branch HEAD points at, at
	// commit to ("" deletes it) with git's lock protocol, if it points at
	// from now ("" when it must not exist); otherwise it changes nothing
	// and returns an error wrapping ErrHeadMoved.
	SetRef(ctx context.Context, ref, from, to string) error
}

// Snapshot is the tree of one commit. It is cheap to take and safe to use
// from several goroutines.
type Snapshot interface {
	// Commit returns the commit id, or "" for the empty tree.
	Commit() string
	// Stat returns the file at path, or an error wrapping ErrNotFound.
	Stat(ctx context.Context, file string) (File, error)
	// Read returns the file at path and its content, or an error wrapping
	// ErrNotFound.
	Read(ctx context.Context, file string) (File, []byte, error)
	// Files lists the regular files under dir ("" for the root), recursively,
	// sorted by path.
	Files(ctx context.Context, dir string) ([]File, error)
}

// File is a regular file in a tree.
type File struct {
	Path string // repository-relative, with extension
	Blob string // blob id: the note's version
	// Size is -1 when the blob is missing from the repository (a partial
	// clone).
	Size int64
}

// Head is where HEAD points.
type Head struct {
	// Branch is the full ref name ("refs/heads/main"), "" when detached.
	Branch string
	// Commit is the commit id, "" on an unborn branch.
	Commit   string
	Detached bool
	// Bare is true for a repository without a worktree.
	Bare bool
}

// Signature names who made a change and when.
type Signature struct {
	Name  string
	Email string
	When  time.Time
}

// FileChange is one file of a change set or of a diff between two trees.
type FileChange struct {
	Path string // repository-relative, with extension
	// Delete removes Path; otherwise Content is its new content.
	Delete  bool
	Content []byte
	// OldBlob and NewBlob are filled in by Store.Changes; "" when absent.
	// Store.Commit sets the NewBlob of every change it writes, so that
	// nothing hashes the content again.
	OldBlob, NewBlob string
}

// CommitRequest is one commit to write.
type CommitRequest struct {
	// Parent is the commit the changes apply to and the value the branch
	// must still have; "" on an unborn branch.
	Parent string
	// Branch is the branch (full ref name) HEAD must point at; "" for any.
	Branch    string
	Changes   []FileChange
	Author    Signature
	Committer Signature
	// Message is the complete commit message, trailers included.
	Message string
	// Merged lists the other parents of a merge commit, after Parent.
	Merged []string
	// Ref, when set, is the ref the commit goes to instead of the branch
	// HEAD points at: a side ref such as a proposal's. HEAD, the checkout
	// and its index are then neither checked nor changed, and Ref must
	// point at RefFrom ("" when it must not exist yet) or the commit fails
	// with ErrHeadMoved. Parent is still the new commit's parent.
	Ref, RefFrom string
	// FastForward names an existing commit to move the branch to instead of
	// writing a new one: Parent must be its ancestor and its tree Parent's
	// with the Changes applied. Message and Committer then only describe
	// the move, in the reflog.
	FastForward string
}

// CommitInfo is what a commit says about itself.
type CommitInfo struct {
	ID        string
	Parents   []string
	Author    Signature
	Committer Signature
	Message   string
}
