package textdiff

import "errors"

// ErrConflict is returned by Merge3 when both sides changed the same lines
// differently; the conflicts themselves are returned alongside it.
var ErrConflict = errors.New("conflicting changes")
