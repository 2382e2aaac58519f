package gitstore

import "errors"

// ErrLocked is returned when a git lock file (<ref>.lock, index.lock) is
// still held by another process when Options.LockTimeout runs out.
var ErrLocked = errors.New("git lock file is held")

// ErrClosed is returned by every method of a Store after Close.
var ErrClosed = errors.New("store is closed")

// ErrNoRepository is returned by Open when there is no git repository at or
// above the path.
var ErrNoRepository = errors.New("no git repository")
