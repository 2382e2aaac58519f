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
// levels) waits for its own timeout. A line over MaxRequestBytes is
// answered too, from its ends, without being held. The answer carries the
// request's id when a shallow scan of the line (of a long line's first and
// last bytes) finds one; a line without a readable id ends the stream,
// since the caller cannot be told which request failed and what follows
// cannot be trusted either. Blank lines are skipped.
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
		line, long, err := ReadLine(r.in)
		r.readErr = err
		switch {
		case long != nil:
			r.line++
			r.refuse(long)
		case len(line) > 0:
			r.line++
			r.pending = r.check(line)
		}
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

// ReadLine reads a line from in, with its newline, when it is at most
// MaxRequestBytes long. A longer line is read to its end but not kept:
// ReadLine returns it as a LongLine instead, to answer it. The error is
// in's, as bufio.Reader.ReadSlice returns it (io.EOF after the last
// line, which may have no newline).
func ReadLine(in *bufio.Reader) (line []byte, long *LongLine, err error) {
	for {
		chunk, err := in.ReadSlice('\n')
		switch {
		case long != nil:
			long.Write(chunk)
		case len(line)+len(chunk) > MaxRequestBytes:
			long = &LongLine{}
			long.Write(line)
			long.Write(chunk)
			line = nil
		default:
			line = append(line, chunk...)
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, long, err
		}
	}
}

// refuse answers a line longer than MaxRequestBytes with an error that
// carries its id when its first or last bytes show one; without one, the
// session ends, as for a line that is not JSON.
func (r *requestReader) refuse(long *LongLine) {
	answer, ok := long.Answer()
	if _, err := r.out.Write(answer); err != nil {
		r.close(fmt.Errorf("write the answer to line %d of standard input: %w", r.line, err))
		return
	}
	if !ok {
		r.close(fmt.Errorf("line %d of standard input is %d bytes, over the limit of %d, and shows no id to answer; closing the session", r.line, long.Len(), MaxRequestBytes))
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
	id, ok := requestID(msg, false)
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
