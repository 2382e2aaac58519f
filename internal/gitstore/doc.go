// Package gitstore is the git repository behind a wiki, and the only package
// that imports go-git, with the packages under it. Store satisfies
// wiki.Store.
//
// What needs no Store lives in the packages under internal/: gitformat
// (git's object, ref, reflog and revision formats), gitindex (the index
// file), objdir (loose objects, objects by short id), gitdir (finding a
// repository, its config, the author's identity), gitnotes (git notes,
// through the git command), journal (the crash journal), status (a
// checkout compared with a tree, as git status does) and memo (caches by
// object id). The write path is in the files named commit*.go, from the
// request to the ref; the others read. Package procid tells whether a lock's process still runs, and
// package noreplace renames a file without replacing one someone made.
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
// so the worktree check cannot be invalidated by git. Under it, in this
// order: the touched paths are checked against the parent, the objects
// written, the new files written to temporary files next to their targets
// and renamed into place (deleted files removed), the index rewritten to a
// temporary file in the git directory and renamed over .git/index (atomic
// for readers: index.lock serves only as the mutex, and is removed at the
// end), and only then is the branch moved. The index is rewritten by
// package gitindex, which copies the runs of untouched entries from the
// file read.
//
// The index goes first because of how `git commit` reads: HEAD, then the
// index without the lock, and only then does it take index.lock and build
// its tree from the index it read; its ref update checks that HEAD is still
// the commit it read first. A command that sees the new HEAD read it after
// the branch moved, so after the new index was in place: it reads the new
// index. A `git commit` that read the old HEAD cannot take index.lock before
// the commit is complete, and then its ref update fails ("cannot lock
// ref"). Either way no `git commit` lands a stale index on top of a wikid
// commit (but see below for the index a failed one leaves). With the branch
// moved first, a `git commit` could read the new HEAD and the old index in
// between, wait for the lock, and silently revert the change.
//
// If the branch cannot be moved after the checkout was updated (a command
// that takes no index lock, such as `git update-ref` or a `git fetch` into
// the checked-out branch, moved it; its lock is held too long; any other
// error), Commit rolls back before it releases index.lock: the old index is
// put back from memory (its bytes and its modification time, so that git
// judges its racily clean entries as before), files written are rewritten
// with the parent's content or removed, deleted files and the folders their
// removal emptied are made again, and folders made for new files are
// removed. No git command changed the index meanwhile, and the touched
// paths were found clean under the lock, so this puts the checkout back as
// it was; the restored files are new inodes, which git reads again once to
// see they are unchanged. Commit then returns the error (wiki.ErrHeadMoved,
// ErrLocked, ...).
//
// # Races left open
//
// Some git commands read the index without the lock, take index.lock later,
// and write back the index they read. A wikid commit that lands in between
// stays in the branch, but that index lacks it: `git status` shows the change
// reverted (staged), Commit refuses the paths (LOCAL_CHANGES, staged
// changes), and a person who commits that index reverts it. This is git's
// own non-atomicity (it loses a concurrent `git add` the same way) and
// cannot be closed from outside git:
//
//   - `git commit` after `git add` (without paths or -a) writes back the
//     index, refreshed, and releases the lock before it moves the branch.
//     The branch moved since it read HEAD, so its commit fails ("cannot lock
//     ref 'HEAD': is at ... but expected ..."), but the index is already
//     written: after that error, reset the index to HEAD (`git reset -q`, or
//     `git read-tree --reset HEAD`, which reads HEAD under the lock) and
//     stage again before committing. `git commit -a` and `git commit
//     <paths>` keep the lock until the branch moved and leave the index alone
//     when that fails.
//   - `git merge` and `git pull` compute the merge from the index they read
//     and write it under the lock. A merge that commits fails as above, as it
//     checks HEAD; a merge that stops on conflicts leaves the index without
//     the wikid change, and the person who concludes it with `git commit`
//     commits the revert.
//
// A git command that reads the index while Commit rolls back (between the
// index rename and the restore) can also see a change that is then not
// committed.
//
// # Crashes
//
// Before it takes a lock, Commit records the commit in a journal,
// <gitdir>/wikid/txn/<pid>-<start>-<tag>.json, synced: the process (its
// procid.ID, which a process given the same pid later does not have), the
// branch, the parent, the new commit and the checkout files it will touch
// with their blob ids before and after. Its index.lock
// is created by a hard link from a temporary file that already holds "wikid
// <journal name>", and its ref lock the same way holding the new commit, so
// that a lock never exists without the content that proves whose it is.
// Its temporary files carry the tag. The journal is removed when the commit
// landed or was rolled back.
//
// A process killed in the middle of a commit leaves its journal, perhaps
// its locks and temporary files, and perhaps files and index entries of a
// commit that never landed. Open, and Commit before it journals its own
// commit (or when it meets a lock whose journal's process is gone), rolls
// such a transaction back: it claims the journal by renaming it, removes
// the ref lock if it holds the journal's commit, takes over the index lock
// if it holds the journal's name (or takes it anew), puts each touched file
// and index entry back to HEAD's where it still holds what the dead commit
// wrote (a file changed since by someone else is left alone), removes the
// temporary files, then the index lock and the journal. If the branch
// already moved to the new commit, the checkout is HEAD's already and only
// the locks and files go. A kill at any point thus leaves the branch at the
// old or the new commit, and the next process starts clean.
//
// A lock file that no journal proves wikid's (a git command's, running or
// crashed) is never removed: Commit waits for it for Options.ForeignLockWait
// (100ms by default), then fails with LOCKED naming the file, and Blocked
// says so for wiki_status. A lock of a running wikid commit is waited for
// up to Options.LockTimeout. Outside Unix a journal's process is never known
// to be gone, so nothing is rolled back there; its locks are reported.
//
// # Limits
//
// The worktree is compared byte for byte with the blobs: clean/smudge
// filters and end-of-line conversion are not applied. Split indexes
// (core.splitIndex) and sparse indexes are refused before anything is
// written; sparse checkouts are not supported. What a rewrite keeps of the
// index's extensions is told in package gitindex. A checkout whose
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
