package gitstore

import "errors"

// ErrLocked is returned when a git lock file (<ref>.lock, index.lock) is
// still held by another process when Options.LockTimeout runs out.
var ErrLocked = errors.New("git lock file is held")

// ErrClosed is returned by every method of a Store after Close.
var ErrClosed = errors.New("store is closed")

// ErrNotRefreshed is returned, together with the new commit id, when a
// commit landed on the branch but the worktree or the index could not be
// brought up to date; `git status` may show the touched files as modified.
var ErrNotRefreshed = errors.New("commit landed but the checkout was not refreshed")
