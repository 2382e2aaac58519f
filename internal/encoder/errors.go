package encoder

import (
	"errors"
	"fmt"
)

// ErrFormat is returned by Load when the data is not a model file this
// package reads: a wrong magic number or version, a truncated or
// inconsistent tensor, or a configuration that does not describe a model.
var ErrFormat = errors.New("not an encoder model file")

// ErrKind is returned by Embed when the kind of text is neither Query nor
// Passage.
var ErrKind = errors.New("unknown kind of text")

// errFormatf returns an error wrapping ErrFormat that says what is wrong.
func errFormatf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...)
}
