// Package wikierr is the error contract of the wiki: the codes a call may
// fail with, one sentinel per code, and the error that carries a code, a
// message, the line it refers to and details for the caller. Package wiki
// re-exports all of it; the note model, which wiki imports, uses it here.
package wikierr

import (
	"errors"
)

// Code classifies an error for callers, whatever their front end.
type Code string

// The error codes.
const (
	CodeInvalidParams Code = "INVALID_PARAMS"
	CodeInvalidPath   Code = "INVALID_PATH"
	CodeInvalidQuery  Code = "INVALID_QUERY"
	CodeNotFound      Code = "NOT_FOUND"
	CodeAlreadyExists Code = "ALREADY_EXISTS"
	CodeConflict      Code = "CONFLICT"
	CodeLocked        Code = "LOCKED"
	CodeAmbiguous     Code = "AMBIGUOUS"
	CodeLinkIntegrity Code = "LINK_INTEGRITY"
	CodeLocalChanges  Code = "LOCAL_CHANGES"
	CodeReadOnly      Code = "READ_ONLY"
	CodeTooLarge      Code = "TOO_LARGE"
	CodeInternal      Code = "INTERNAL"
	// CodeUnavailable: a service the wiki relies on (the embeddings
	// endpoint) did not answer; the same call may succeed later.
	CodeUnavailable Code = "UNAVAILABLE"
	// CodeOtherBranch: the checkout has another branch checked out than
	// the one the wiki writes to; the same call succeeds once it is back.
	CodeOtherBranch Code = "OTHER_BRANCH"
	// CodeNoSpace: a write found the disk that holds the repository full,
	// or the user's disk quota used up. The same call succeeds once space
	// is freed.
	CodeNoSpace Code = "NO_SPACE"
)

// Sentinel errors, one per code. errors.Is(err, ErrNotFound) holds for every
// *Error whose code is CodeNotFound, whatever its message.
var (
	// ErrInvalidParams is returned when an argument is missing, malformed or contradicts another.
	ErrInvalidParams = &Error{Code: CodeInvalidParams}
	// ErrInvalidPath is returned when a path breaks the path rules.
	ErrInvalidPath = &Error{Code: CodeInvalidPath}
	// ErrInvalidQuery is returned when a search query does not parse.
	ErrInvalidQuery = &Error{Code: CodeInvalidQuery}
	// ErrNotFound is returned when a note, section or version does not exist.
	ErrNotFound = &Error{Code: CodeNotFound}
	// ErrAlreadyExists is returned when a create or move would replace an existing note.
	ErrAlreadyExists = &Error{Code: CodeAlreadyExists}
	// ErrConflict is returned when a note changed since the version the caller expected.
	ErrConflict = &Error{Code: CodeConflict}
	// ErrLocked is returned when a git lock file that wikid did not take
	// (another git command's, running or crashed) blocks a write.
	ErrLocked = &Error{Code: CodeLocked}
	// ErrAmbiguous is returned when a find text, section or short id matches more than once.
	ErrAmbiguous = &Error{Code: CodeAmbiguous}
	// ErrLinkIntegrity is returned when a change would break links that must stay intact.
	ErrLinkIntegrity = &Error{Code: CodeLinkIntegrity}
	// ErrLocalChanges is returned when a checked-out file to be touched has uncommitted edits.
	ErrLocalChanges = &Error{Code: CodeLocalChanges}
	// ErrReadOnly is returned when a mutation is attempted on a read-only wiki.
	ErrReadOnly = &Error{Code: CodeReadOnly}
	// ErrTooLarge is returned when content exceeds a configured limit.
	ErrTooLarge = &Error{Code: CodeTooLarge}
	// ErrOtherBranch is returned when a mutation is attempted while the
	// checkout has another branch checked out than the wiki's.
	ErrOtherBranch = &Error{Code: CodeOtherBranch}
	// ErrNoSpace is returned when a write fails because the disk is full or
	// the disk quota is used up.
	ErrNoSpace = &Error{Code: CodeNoSpace}
)

// Error is an error with a contract code, a message and a hint on what to do next.
type Error struct {
	Code    Code
	Message string
	Hint    string
	// Line is the 1-based line the error refers to, or 0.
	Line int
	// Details carries structured data for the caller, such as the current
	// version on a conflict or the headings that exist on a missing section.
	Details map[string]any
}

// Errorf returns an *Error with the code and a formatted message; the
// format may hold references (see Sayf).
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: Sayf(format, args...)}
}

// WithHint returns e with its hint set; the format may hold references
// (see Sayf).
func (e *Error) WithHint(format string, args ...any) *Error {
	e.Hint = Sayf(format, args...)
	return e
}

// Error returns "CODE: message", its references (see Sayf) still marked
// for the front end that prints it to word.
func (e *Error) Error() string {
	if e.Message == "" {
		return string(e.Code)
	}
	return string(e.Code) + ": " + e.Message
}

// Is reports whether target is a sentinel *Error with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Message == "" && t.Code == e.Code
}

// CodeOf returns the code of the first *Error in err's chain, CodeInternal if
// there is none, and "" for a nil error.
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}
