package wiki

import (
	"errors"

	"github.com/wikid/wikid/internal/note"
)

// ErrHeadMoved is returned by Store.Commit when the branch no longer points at
// the parent the change was built on. The caller rebuilds on the new HEAD.
var ErrHeadMoved = errors.New("branch moved since the change was prepared")

// ErrDetached is returned when a mutation is attempted while HEAD is detached.
var ErrDetached = errors.New("HEAD is detached: check out a branch to write")

// ErrMissingObject is returned when an object the repository refers to is
// absent (a partial clone or a damaged repository). A missing object is not
// a missing note: the store's reads return it as a *MissingObjectError.
var ErrMissingObject = errors.New("object is missing from the repository")

// MissingObjectError is an object that a commit or tree of the repository
// refers to but that the repository lacks: a partial clone (git clone
// --filter=blob:none) holds only the blobs its checkout needed, and a
// damaged repository may have lost some. errors.Is matches it with
// ErrMissingObject, and with note.ErrNotFound for the tool contract: its
// message names the object and its hint says how to fetch it.
type MissingObjectError struct {
	// ID is the object's full hex id.
	ID string
}

// Error returns the contract error's text.
func (e *MissingObjectError) Error() string { return e.contract().Error() }

// Unwrap returns ErrMissingObject and the NOT_FOUND contract error.
func (e *MissingObjectError) Unwrap() []error { return []error{ErrMissingObject, e.contract()} }

func (e *MissingObjectError) contract() *note.Error {
	return note.Errorf(note.CodeNotFound, "object %s is missing from this repository (a partial clone, or a damaged repository)", e.ID).
		WithHint("in a partial clone, `git cat-file -e %s` fetches it from the remote; otherwise `git fsck` shows what is lost", e.ID)
}
