package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// JSON-RPC's codes for a message that is not valid JSON, and for one that
// is not a valid request (here: too large).
const (
	parseErrorCode     = -32700
	invalidRequestCode = -32600
)

// MaxRequestBytes is the largest request wikid reads, over stdio and HTTP:
// a note at the largest size (1 MiB by default) many times over, escaped in
// JSON. A larger one is refused before it is decoded, so that memory
// follows what is kept, not what is sent.
const MaxRequestBytes = 16 << 20

// requestReader stands between standard input and mcp-go's stdio server.
// It passes on every line that is valid JSON and answers the others itself:
// mcp-go answers them with the id null, so a caller whose request it could
// not parse (such as one nested deeper than encoding/json's limit of 10,000
// levels) waits for its own timeout. The answer carries the request's id
// when a shallow scan of the line finds one; a line without a readable id
// ends the stream, since the caller cannot be told which request failed
// and what follows cannot be trusted either. Blank lines are skipped.
type requestReader struct {
	in  *bufio.Reader
	out *lineWriter

	line    int    // lines read so far
	pending []byte // the rest of the line being passed on
	readErr error  // the error that ended in, once pending is passed on

	mu sync.Mutex
	// closed is why the stream was ended early, or nil.
	closed error
}

// closedBy returns why the stream was ended early, or nil.
func (r *requestReader) closedBy() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closed
}

func (r *requestReader) close(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = err
}

func newRequestReader(in io.Reader, out *lineWriter) *requestReader {
	return &requestReader{in: bufio.NewReader(in), out: out}
}

// Read passes the checked lines on.
func (r *requestReader) Read(p []byte) (int, error) {
	for len(r.pending) == 0 {
		if r.closedBy() != nil {
			return 0, io.EOF
		}
		if r.readErr != nil {
			return 0, r.readErr
		}
		line, tooLong, err := readLine(r.in, MaxRequestBytes)
		r.readErr = err
		switch {
		case tooLong > 0:
			r.line++
			r.refuse(line, tooLong)
		case len(line) > 0:
			r.line++
			r.pending = r.check(line)
		}
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

// readLine reads a line of at most max bytes. A longer line is read to its
// end but not kept: it returns the line's first bytes (enough to find an
// id) and its length.
func readLine(in *bufio.Reader, max int) (line []byte, tooLong int, err error) {
	for {
		chunk, err := in.ReadSlice('\n')
		if tooLong > 0 {
			tooLong += len(chunk)
		} else if len(line)+len(chunk) > max {
			tooLong = len(line) + len(chunk)
			if keep := idScanBytes - len(line); keep > 0 {
				line = append(line, chunk[:min(keep, len(chunk))]...)
			}
		} else {
			line = append(line, chunk...)
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, tooLong, err
		}
	}
}

// idScanBytes is how much of a line too long to take is kept to find its
// request id.
const idScanBytes = 64 << 10

// refuse answers a line longer than MaxRequestBytes with an error that
// carries its id when its first bytes show one; without one, the session
// ends, as for a line that is not JSON.
func (r *requestReader) refuse(head []byte, n int) {
	id, ok := requestID(head)
	if !ok {
		id = json.RawMessage("null")
	}
	answer, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error": map[string]any{"code": invalidRequestCode, "message": fmt.Sprintf(
			"request too large: %d bytes, and the limit is %d; send less (split a batch, or the content)", n, MaxRequestBytes)},
	})
	if _, err := r.out.Write(append(answer, '\n')); err != nil {
		r.close(fmt.Errorf("write the answer to line %d of standard input: %w", r.line, err))
		return
	}
	if !ok {
		r.close(fmt.Errorf("line %d of standard input is %d bytes, over the limit of %d, and shows no id to answer; closing the session", r.line, n, MaxRequestBytes))
	}
}

// check returns the line to pass on, or nil when it answered the line
// itself or skipped it.
func (r *requestReader) check(line []byte) []byte {
	msg := bytes.TrimSpace(line)
	if len(msg) == 0 {
		return nil
	}
	if json.Valid(msg) {
		if line[len(line)-1] != '\n' {
			line = append(line, '\n')
		}
		return line
	}
	var raw json.RawMessage
	cause := json.Unmarshal(msg, &raw) // says why json.Valid refused it
	id, ok := requestID(msg)
	if !ok {
		id = json.RawMessage("null")
	}
	answer, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error":   map[string]any{"code": parseErrorCode, "message": fmt.Sprintf("Parse error: %v", cause)},
	})
	if _, err := r.out.Write(append(answer, '\n')); err != nil {
		r.close(fmt.Errorf("write the answer to line %d of standard input: %w", r.line, err))
		return nil
	}
	if !ok {
		r.close(fmt.Errorf("line %d of standard input is not a JSON-RPC message and has no id to answer (%v); "+
			"closing the session: send one JSON object per line", r.line, cause))
	}
	return nil
}

// requestID finds the "id" of a JSON object in msg by a shallow scan that
// needs no valid JSON beyond the key and the id itself, at any nesting of
// the other values. It reports false when msg is no object, or the id is
// missing, unreadable or neither a string nor a number.
func requestID(msg []byte) (json.RawMessage, bool) {
	i := skipSpace(msg, 0)
	if i >= len(msg) || msg[i] != '{' {
		return nil, false
	}
	i++
	for {
		i = skipSpace(msg, i)
		if i >= len(msg) || msg[i] != '"' {
			return nil, false
		}
		end, ok := skipString(msg, i)
		if !ok {
			return nil, false
		}
		var key string
		if json.Unmarshal(msg[i:end], &key) != nil {
			return nil, false
		}
		i = skipSpace(msg, end)
		if i >= len(msg) || msg[i] != ':' {
			return nil, false
		}
		i = skipSpace(msg, i+1)
		end, ok = skipValue(msg, i)
		if !ok {
			return nil, false
		}
		if key == "id" {
			v := msg[i:end]
			if (v[0] == '"' || v[0] == '-' || ('0' <= v[0] && v[0] <= '9')) && json.Valid(v) {
				return json.RawMessage(v), true
			}
			return nil, false
		}
		i = skipSpace(msg, end)
		if i >= len(msg) || msg[i] != ',' {
			return nil, false
		}
		i++
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// skipString returns the index after the string that starts at b[i].
func skipString(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

// skipValue returns the index after the value that starts at b[i]: a
// string, an object or array (by counting brackets, without recursion), or
// a literal or number.
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, ok := skipString(b, j)
				if !ok {
					return 0, false
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, true
				}
			}
		}
		return 0, false
	}
	j := i
	for j < len(b) && !bytes.ContainsRune([]byte(",}] \t\r\n"), rune(b[j])) {
		j++
	}
	return j, j > i
}

// lineWriter serializes whole writes to standard output: mcp-go writes each
// message with one Write, and so does requestReader.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
