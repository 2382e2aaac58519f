package index

import "errors"

var (
	// ErrClosed is returned by every method called after Close, and after
	// a Reset that could not recreate the index.
	ErrClosed = errors.New("search index closed")
	// ErrLocked is returned by Open when another process holds the index.
	ErrLocked = errors.New("search index in use by another process")
)
