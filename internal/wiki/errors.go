package wiki

import (
	"errors"

	"github.com/wikid/wikid/internal/wikierr"
)

// The error contract: what every call of the wiki, and of its adapters,
// may return. It is defined in package wikierr, which the note model can
// import too, and re-exported here where a reader looks for it.
type (
	// Error is an error with a contract code, a message, a hint and details.
	Error = wikierr.Error
	// Code classifies an error for the front ends.
	Code = wikierr.Code
)

// The codes of the error contract.
const (
	CodeInvalidParams = wikierr.CodeInvalidParams
	CodeInvalidPath   = wikierr.CodeInvalidPath
	CodeInvalidQuery  = wikierr.CodeInvalidQuery
	CodeNotFound      = wikierr.CodeNotFound
	CodeAlreadyExists = wikierr.CodeAlreadyExists
	CodeConflict      = wikierr.CodeConflict
	CodeLocked        = wikierr.CodeLocked
	CodeAmbiguous     = wikierr.CodeAmbiguous
	CodeLinkIntegrity = wikierr.CodeLinkIntegrity
	CodeLocalChanges  = wikierr.CodeLocalChanges
	CodeReadOnly      = wikierr.CodeReadOnly
	CodeTooLarge      = wikierr.CodeTooLarge
	CodeInternal      = wikierr.CodeInternal
	CodeUnavailable   = wikierr.CodeUnavailable
	CodeOtherBranch   = wikierr.CodeOtherBranch
	CodeNoSpace       = wikierr.CodeNoSpace
)

// The sentinels, one per code: errors.Is(err, ErrNotFound) holds for every
// *Error whose code is CodeNotFound.
var (
	ErrInvalidParams = wikierr.ErrInvalidParams
	ErrInvalidPath   = wikierr.ErrInvalidPath
	ErrInvalidQuery  = wikierr.ErrInvalidQuery
	ErrNotFound      = wikierr.ErrNotFound
	ErrAlreadyExists = wikierr.ErrAlreadyExists
	ErrConflict      = wikierr.ErrConflict
	ErrLocked        = wikierr.ErrLocked
	ErrAmbiguous     = wikierr.ErrAmbiguous
	ErrLinkIntegrity = wikierr.ErrLinkIntegrity
	ErrLocalChanges  = wikierr.ErrLocalChanges
	ErrReadOnly      = wikierr.ErrReadOnly
	ErrTooLarge      = wikierr.ErrTooLarge
	ErrOtherBranch   = wikierr.ErrOtherBranch
	ErrNoSpace       = wikierr.ErrNoSpace
)

// Errorf returns an *Error with the code and a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return wikierr.Errorf(code, format, args...)
}

// CodeOf returns the code of the first *Error in err's chain, CodeInternal
// if there is none, and "" for a nil error.
func CodeOf(err error) Code { return wikierr.CodeOf(err) }

// FromOS returns err with a contract code when it is a condition of the
// file system that the user can put right: a full disk or a used-up quota
// is NO_SPACE, a read-only file system READ_ONLY (see wikierr.FromOS).
// Other errors are returned as they are.
func FromOS(err error) error { return wikierr.FromOS(err) }

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
// ErrMissingObject, and with ErrNotFound for the tool contract: its
// message names the object and its hint says how to fetch it.
type MissingObjectError struct {
	// ID is the object's full hex id.
	ID string
}

// Error returns the contract error's text.
func (e *MissingObjectError) Error() string { return e.contract().Error() }

// Unwrap returns ErrMissingObject and the NOT_FOUND contract error.
func (e *MissingObjectError) Unwrap() []error { return []error{ErrMissingObject, e.contract()} }

func (e *MissingObjectError) contract() *Error {
	return Errorf(CodeNotFound, "object %s is missing from this repository (a partial clone, or a damaged repository)", e.ID).
		WithHint("in a partial clone, `git cat-file -e %s` fetches it from the remote; otherwise `git fsck` shows what is lost", e.ID)
}

// Words is a front end's wording of the references that messages, hints
// and warnings hold (see wikierr.Sayf).
type Words = wikierr.Words

// Sayf formats a message or warning whose format may hold references
// such as "{restore}", which each front end words with its Words.
func Sayf(format string, args ...any) string { return wikierr.Sayf(format, args...) }

// Refs returns every reference the core may write.
func Refs() []string { return wikierr.Refs() }
