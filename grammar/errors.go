package grammar

import "fmt"

// Limits that keep a hostile query cheap to reject.
const (
	// MaxLength is the longest query Parse accepts, in bytes.
	MaxLength = 2000
	// MaxDepth is how deeply parentheses and negations may nest.
	MaxDepth = 32
)

// Error is the error Parse returns for every query it rejects.
type Error struct {
	// Column is the 1-based byte column of the problem: within the input,
	// or one past its end when the problem is the end of the input.
	Column int
	// Msg says what is wrong in plain words, including the column.
	Msg string
}

// Error returns Msg.
func (e *Error) Error() string { return e.Msg }

// errorAt returns an *Error at the 1-based column col with a formatted
// message.
func errorAt(col int, format string, args ...any) *Error {
	return &Error{Column: col, Msg: fmt.Sprintf(format, args...)}
}
