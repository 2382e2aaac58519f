package history

import "errors"

// ErrClosed is returned by every method of an Index after Close.
var ErrClosed = errors.New("history index is closed")

// errCorrupt is returned by the decoder for a record it cannot read; the
// index is then rebuilt from that record on.
var errCorrupt = errors.New("history index file is damaged")
