package daemon

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// protocolVersion changes when hello or the frames change; a client and a
// daemon of different versions refuse each other with a clear error.
const protocolVersion = 1

// Connection kinds.
const (
	kindMCP    = "mcp"
	kindCLI    = "cli"
	kindStatus = "status"
	kindStop   = "stop"
	kindHTTP   = "http"
)

// hello is the first line a client sends.
type hello struct {
	Protocol int         `json:"protocol"`
	Kind     string      `json:"kind"`
	MCP      *MCPOptions `json:"mcp,omitempty"`
	CLI      *Command    `json:"cli,omitempty"`
	// HTTP is the listener an HTTP connection asks for.
	HTTP *HTTP `json:"http,omitempty"`
}

// MCPOptions are what one MCP connection asks of the daemon: the flags of
// the `wikid serve` that bridges it.
type MCPOptions struct {
	// ReadOnly hides and refuses the tools that change notes.
	ReadOnly bool `json:"read_only,omitempty"`
	// Tools are the tool groups to serve; none means all.
	Tools []string `json:"tools,omitempty"`
	// Author, "Name <email>", is the author of every change the
	// connection makes; empty means the client.
	Author string `json:"author,omitempty"`
	// Profile is the tool set to serve (mcpserver.Profiles); empty means
	// wikid's own.
	Profile string `json:"profile,omitempty"`
	// Propose makes every change the connection makes a proposal.
	Propose bool `json:"propose,omitempty"`
}

// Command is a command line run in the daemon for a client.
type Command struct {
	Args []string `json:"args"`
	// Env is the client's environment (KEY=value), Dir its working folder.
	Env []string `json:"env"`
	Dir string   `json:"dir"`
	// StdinTTY and StderrTTY say whether those are terminals.
	StdinTTY  bool `json:"stdin_tty,omitempty"`
	StderrTTY bool `json:"stderr_tty,omitempty"`
}

// reply is the daemon's answer to hello.
type reply struct {
	Error string `json:"error,omitempty"`
	// Version is the daemon's wikid version.
	Version string  `json:"version,omitempty"`
	Status  *Status `json:"status,omitempty"`
}

// readLine reads one JSON line into v.
func readLine(r *bufio.Reader, v any) error {
	line, err := r.ReadBytes('\n')
	if err != nil {
		if errors.Is(err, io.EOF) && len(line) == 0 {
			return io.ErrUnexpectedEOF
		}
		if !errors.Is(err, io.EOF) {
			return err
		}
	}
	return json.Unmarshal(line, v)
}

// writeLine writes v as one JSON line.
func writeLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Frame kinds of a command connection. From the daemon: standard output and
// error, a request for standard input, and the exit status (payload: 4
// bytes, big endian). From the client: standard input and its end.
const (
	frameStdout    = 'o'
	frameStderr    = 'e'
	frameWantStdin = 'r'
	frameExit      = 'x'
	frameStdin     = 'i'
	frameStdinEOF  = 'I'
)

// maxFrame bounds a frame's payload.
const maxFrame = 1 << 20

// frameWriter writes frames; it is safe for concurrent use.
type frameWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (f *frameWriter) frame(kind byte, p []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for {
		n := min(len(p), maxFrame)
		var head [5]byte
		head[0] = kind
		binary.BigEndian.PutUint32(head[1:], uint32(n))
		if _, err := f.w.Write(head[:]); err != nil {
			return err
		}
		if _, err := f.w.Write(p[:n]); err != nil {
			return err
		}
		p = p[n:]
		if len(p) == 0 {
			return nil
		}
	}
}

// stream is an io.Writer of one frame kind.
type stream struct {
	f    *frameWriter
	kind byte
}

func (s stream) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if err := s.f.frame(s.kind, p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// readFrame reads one frame.
func readFrame(r io.Reader) (byte, []byte, error) {
	var head [5]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return 0, nil, err
	}
	n := binary.BigEndian.Uint32(head[1:])
	if n > maxFrame {
		return 0, nil, fmt.Errorf("daemon protocol: frame of %d bytes", n)
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(r, p); err != nil {
		return 0, nil, err
	}
	return head[0], p, nil
}
