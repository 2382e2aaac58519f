package wiki

import "errors"

// ErrHeadMoved is returned by Store.Commit when the branch no longer points at
// the parent the change was built on. The caller rebuilds on the new HEAD.
var ErrHeadMoved = errors.New("branch moved since the change was prepared")

// ErrDetached is returned when a mutation is attempted while HEAD is detached.
var ErrDetached = errors.New("HEAD is detached: check out a branch to write")
