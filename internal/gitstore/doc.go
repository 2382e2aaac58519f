// Package gitstore is the git repository behind a wiki, and the only package
// that imports go-git. Store satisfies wiki.Store.
//
// # Reading
//
// A Snapshot is the tree of one commit. Trees are decoded once and cached by
// hash (trees are immutable); Stat and Read walk only the trees on the path,
// Files walks one subtree. Revisions are resolved the way git does it: refs
// first (HEAD, refs/<name>, tags, branches, remotes), then a unique short
// sha of at least four hex digits, found by scanning the loose object
// folders and the pack indexes for the prefix.
//
// # Writing
//
// Commit writes the objects itself (blobs, only the trees on the touched
// paths, the commit) as loose objects, compressed at zlib's best speed as
// git does, and moves the branch with git's lock protocol: <ref>.lock
// created exclusively, the old value verified (loose ref, else
// packed-refs), the new value written, synced and renamed over the ref, with
// a reflog line like git's. A concurrent git command and wikid therefore
// never overwrite each other's ref update. go-git's worktree and index code
// is not used: staging a file through it costs about 300 ms in a
// 10,000-file checkout, and it rewrites .git/index in place without git's
// lock.
//
// In a checkout, Commit holds .git/index.lock for the whole commit, as
// `git commit` does, and takes it before the ref lock, in git's lock order.
// While it is held no git command changes the index or switches branches,
// so the worktree check cannot be invalidated by git and a concurrent `git
// commit` cannot build its tree from an index that lacks the change just
// committed. The new files are written to temporary files next to their
// targets before the ref moves; after it moved they are renamed into place
// and their index entries refreshed with fresh stat data, so `git status`
// stays clean. The index is rewritten by copying the runs of untouched
// entries from the file read, so a commit costs one pass over the file plus
// its checksum, not a decode and encode of every entry.
//
// # Crash window
//
// If the process dies after the ref moved and before the index was renamed
// into place (the renames, an lstat per touched file and one index write:
// about a millisecond), the commit is in the branch, but `git status` may
// show the touched files as modified and .git/index.lock (plus a few
// .wikid-*.tmp files) is left behind, as after a crashed git command: git
// then refuses to run until the lock file is removed.
//
// # Limits
//
// The worktree is compared byte for byte with the blobs: clean/smudge
// filters and end-of-line conversion are not applied. Split indexes
// (core.splitIndex) and sparse indexes are refused before anything is
// written; sparse checkouts are not supported. Index extensions other than
// the cache tree (TREE, invalidated along the touched paths) and resolve-undo
// (REUC, kept) are dropped when the index is rewritten; git recreates the
// untracked cache and the fsmonitor data when it needs them. A checkout whose
// index is missing gets a new index only on its first commit (the whole tree
// is the change); otherwise the index stays missing. The reftable ref
// backend and sha256 repositories are refused by Open; version 1 pack
// indexes (not written by git since 2007) are not read.
//
// # Concurrency
//
// go-git is not safe for concurrent use: every go-git call runs under one
// mutex, and the go-git storage never leaves the package. Commits are
// serialized by a second mutex, so reads proceed while a commit waits for a
// lock.
package gitstore
