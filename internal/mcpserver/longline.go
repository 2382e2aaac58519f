package mcpserver

import (
	"encoding/json"
	"fmt"
)

// idScanBytes is how much of each end of a line too long to take is kept
// to find its request id.
const idScanBytes = 64 << 10

// LongLine keeps what it takes to answer a line too long to take (over
// MaxRequestBytes) without holding it: its length, and its first and last
// idScanBytes, which hold its request id (the TypeScript SDK writes the id
// after the params, other clients before). The zero value is an empty
// line.
type LongLine struct {
	head, tail []byte
	n          int64
}

// Write adds p to the line. It never fails.
func (l *LongLine) Write(p []byte) (int, error) {
	l.n += int64(len(p))
	if room := idScanBytes - len(l.head); room > 0 {
		l.head = append(l.head, p[:min(room, len(p))]...)
	}
	switch {
	case len(p) >= idScanBytes:
		l.tail = append(l.tail[:0], p[len(p)-idScanBytes:]...)
	case len(l.tail)+len(p) > 2*idScanBytes:
		// Keep the last idScanBytes with p, in a buffer that never grows.
		keep := idScanBytes - len(p)
		copy(l.tail, l.tail[len(l.tail)-keep:])
		l.tail = append(l.tail[:keep], p...)
	default:
		l.tail = append(l.tail, p...)
	}
	return len(p), nil
}

// Len returns the line's length in bytes.
func (l *LongLine) Len() int64 { return l.n }

// ID returns the line's request id: the object's first "id" when its
// first bytes show one, else its last when its last bytes do. It reports
// false when the line is not an object or shows no id in either.
func (l *LongLine) ID() (json.RawMessage, bool) {
	if id, ok := requestID(l.head, l.n > int64(len(l.head))); ok {
		return id, true
	}
	if i := skipSpace(l.head, 0); i == len(l.head) || l.head[i] != '{' {
		return nil, false
	}
	return lastID(l.tail)
}

// Answer returns the answer to the line, on a line of its own: an invalid
// request error that says the request is too large, with the request's
// id. It reports false when the line shows no id: the answer's id is
// null then, and the session should end, since the caller cannot be told
// which request failed.
func (l *LongLine) Answer() ([]byte, bool) {
	id, ok := l.ID()
	if !ok {
		id = json.RawMessage("null")
	}
	answer, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error": map[string]any{"code": invalidRequestCode, "message": fmt.Sprintf(
			"request too large: %d bytes, and the limit is %d; send less (split a batch, or the content)", l.n, MaxRequestBytes)},
	})
	return append(answer, '\n'), ok
}
