package gitstore

import (
	"errors"

	"github.com/wikid/wikid/internal/gitstore/internal/gitdir"
	"github.com/wikid/wikid/internal/wiki"
)

// ErrLocked matches the errors (of code LOCKED) returned when a git lock
// file (<ref>.lock, index.lock) that wikid did not take is still there after
// Options.ForeignLockWait, or one of another wikid process after
// Options.LockTimeout.
var ErrLocked = wiki.ErrLocked

// ErrClosed is returned by every method of a Store after Close.
var ErrClosed = errors.New("store is closed")

// ErrNoRepository is returned by Open when there is no git repository at or
// above the path.
var ErrNoRepository = gitdir.ErrNoRepository

// errNotPutBack is wrapped, with the errors of the rollback, in the error
// returned when a commit failed after it had changed the checkout and could
// not put the checkout back as it was: the branch did not move, but the
// checkout holds the change (see classify).
var errNotPutBack = errors.New("the checkout could not be put back")
