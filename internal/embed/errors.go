package embed

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// ErrUnreachable is returned, wrapped in an *Error, when the endpoint
// could not be reached: no connection, a timeout.
var ErrUnreachable = errors.New("embeddings endpoint unreachable")

// Error is a failed embeddings request.
type Error struct {
	// Status is the HTTP status, 0 when there was no answer.
	Status  int
	Message string
	// Retryable says that the same request may succeed later.
	Retryable  bool
	RetryAfter time.Duration
	err        error
}

func (e *Error) Error() string {
	switch {
	case e.err != nil:
		return fmt.Sprintf("%v: %s", e.err, e.Message)
	case e.Status != 0:
		return fmt.Sprintf("embeddings endpoint answered %d %s: %s", e.Status, http.StatusText(e.Status), e.Message)
	}
	return "embeddings endpoint: " + e.Message
}

func (e *Error) Unwrap() error { return e.err }
