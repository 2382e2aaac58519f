//go:build windows

package daemon

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// maxSocketPath is 0: on Windows the daemon listens on a named pipe, whose
// name is made from the socket path and is short whatever the path.
const maxSocketPath = 0

// A daemon on Windows listens on a named pipe rather than a unix socket:
// every Windows has them (unix sockets came with Windows 10 version 1803,
// and Wine has none), they take an access list, and one pipe can have
// many instances, one per client. The endpoint's socket path names the
// pipe (see pipeName); no file is made for it.
//
// The pipe is in message mode and read as bytes, so a message of no bytes
// can mark the end of what one side sends: CloseWrite writes it, and the
// other side reads it as io.EOF, as a unix socket's half close.

// pipeName returns the name of the pipe of the socket path: the pipe
// namespace is the machine's, so the name is a digest of the path, which
// lies in the user's own runtime folder.
func pipeName(socket string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(socket)))
	return `\\.\pipe\wikid-` + hex.EncodeToString(sum[:16])
}

// pipeBuffer is the size of a pipe instance's buffers each way.
const pipeBuffer = 64 << 10

// listenSocket listens on the daemon's pipe. The first instance is made
// with FILE_FLAG_FIRST_PIPE_INSTANCE, so that a pipe of that name that
// exists already, another user's included, is an error, not shared; its
// access list lets this user and the system in, no one else.
func listenSocket(path string) (net.Listener, error) {
	self, err := currentUser()
	if err != nil {
		return nil, fmt.Errorf("this user: %w", err)
	}
	sd, err := windows.SecurityDescriptorFromString("D:P(A;;GA;;;" + self.String() + ")(A;;GA;;;SY)")
	if err != nil {
		return nil, fmt.Errorf("the pipe's access list: %w", err)
	}
	l := &pipeListener{name: pipeName(path), sa: &windows.SecurityAttributes{SecurityDescriptor: sd}, closed: make(chan struct{})}
	l.sa.Length = uint32(unsafe.Sizeof(*l.sa))
	if l.next, err = l.instance(true); err != nil {
		return nil, listenError(err)
	}
	return l, nil
}

// removeSocket does nothing: a pipe goes with its last handle.
func removeSocket(string) {}

// dialSocket connects to the daemon's pipe, waiting while every instance
// is taken (the daemon makes the next as it accepts), and checks that the
// process serving it runs as this user: a pipe of that name that another
// user made is refused.
func dialSocket(ctx context.Context, path string) (net.Conn, error) {
	name := pipeName(path)
	p, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return nil, err
	}
	for {
		h, err := windows.CreateFile(p, windows.GENERIC_READ|windows.GENERIC_WRITE, 0, nil, windows.OPEN_EXISTING,
			windows.FILE_FLAG_OVERLAPPED|windows.SECURITY_SQOS_PRESENT|windows.SECURITY_IDENTIFICATION, 0)
		if err == nil {
			if err := checkPipeServer(h); err != nil {
				windows.CloseHandle(h)
				return nil, err
			}
			return newPipeConn(h, name), nil
		}
		if !errors.Is(err, windows.ERROR_PIPE_BUSY) {
			return nil, &net.OpError{Op: "dial", Net: "pipe", Addr: pipeAddr(name), Err: err}
		}
		select {
		case <-ctx.Done():
			return nil, &net.OpError{Op: "dial", Net: "pipe", Addr: pipeAddr(name), Err: ctx.Err()}
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// checkPipeServer returns an error unless the process that serves the
// pipe h runs as this user.
func checkPipeServer(h windows.Handle) error {
	var pid uint32
	if err := windows.GetNamedPipeServerProcessId(h, &pid); err != nil {
		return fmt.Errorf("the daemon pipe's process: %w", err)
	}
	owner, err := processOwner(pid)
	if err != nil {
		return fmt.Errorf("the daemon pipe's process %d: %w", pid, err)
	}
	self, err := currentUser()
	if err != nil {
		return fmt.Errorf("this user: %w", err)
	}
	if !owner.Equals(self) {
		return fmt.Errorf("the daemon pipe is served by process %d of another user", pid)
	}
	return nil
}

// pipeListener accepts clients on a named pipe: it keeps one instance
// waiting for a client, and makes the next once a client takes it. One
// Accept runs at a time.
type pipeListener struct {
	name string
	sa   *windows.SecurityAttributes

	mu      sync.Mutex
	next    windows.Handle // the instance for the next client; 0 once closed
	err     error          // why there is no next instance
	waiting bool           // an Accept waits on next, and closes it if closed
	closed  chan struct{}
	once    sync.Once
}

// instance makes an instance of the pipe for the next client.
func (l *pipeListener) instance(first bool) (windows.Handle, error) {
	p, err := windows.UTF16PtrFromString(l.name)
	if err != nil {
		return 0, err
	}
	mode := uint32(windows.PIPE_ACCESS_DUPLEX | windows.FILE_FLAG_OVERLAPPED)
	if first {
		mode |= windows.FILE_FLAG_FIRST_PIPE_INSTANCE
	}
	h, err := windows.CreateNamedPipe(p, mode,
		windows.PIPE_TYPE_MESSAGE|windows.PIPE_READMODE_BYTE|windows.PIPE_WAIT|windows.PIPE_REJECT_REMOTE_CLIENTS,
		windows.PIPE_UNLIMITED_INSTANCES, pipeBuffer, pipeBuffer, 0, l.sa)
	if err != nil {
		return 0, err
	}
	return h, nil
}

// Accept waits for a client on the waiting instance, hands that instance
// over, and makes the next. An instance that fails to take a client is
// replaced, twice at most in a row.
func (l *pipeListener) Accept() (net.Conn, error) {
	for failed := 0; ; failed++ {
		l.mu.Lock()
		h, err := l.next, l.err
		switch {
		case l.isClosed():
			l.mu.Unlock()
			return nil, net.ErrClosed
		case h == 0:
			l.mu.Unlock()
			return nil, &net.OpError{Op: "accept", Net: "pipe", Addr: pipeAddr(l.name), Err: err}
		}
		l.waiting = true
		l.mu.Unlock()
		err = connectPipe(h)
		l.mu.Lock()
		l.waiting = false
		if l.isClosed() {
			l.mu.Unlock()
			windows.CloseHandle(h)
			return nil, net.ErrClosed
		}
		l.next, l.err = l.instance(false)
		l.mu.Unlock()
		if err == nil {
			return newPipeConn(h, l.name), nil
		}
		windows.CloseHandle(h)
		if failed == 2 {
			return nil, &net.OpError{Op: "accept", Net: "pipe", Addr: pipeAddr(l.name), Err: err}
		}
	}
}

func (l *pipeListener) isClosed() bool {
	select {
	case <-l.closed:
		return true
	default:
		return false
	}
}

// connectPipe waits for a client to open the instance h. A client that
// came and went before it is let go of, and the next one waited for.
func connectPipe(h windows.Handle) error {
	ev, err := windows.CreateEvent(nil, 1, 0, nil)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(ev)
	for {
		ov := windows.Overlapped{HEvent: ev}
		err := windows.ConnectNamedPipe(h, &ov)
		if errors.Is(err, windows.ERROR_IO_PENDING) {
			var n uint32
			err = windows.GetOverlappedResult(h, &ov, &n, true)
		}
		switch {
		case err == nil, errors.Is(err, windows.ERROR_PIPE_CONNECTED):
			return nil
		case errors.Is(err, windows.ERROR_NO_DATA):
			if err := windows.DisconnectNamedPipe(h); err != nil {
				return err
			}
		default:
			return err
		}
	}
}

// Close stops listening: a waiting Accept returns net.ErrClosed. Clients
// already accepted keep their connections.
func (l *pipeListener) Close() error {
	l.once.Do(func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		close(l.closed)
		if l.waiting {
			_ = windows.CancelIoEx(l.next, nil) // Accept closes it
		} else if l.next != 0 {
			windows.CloseHandle(l.next)
		}
		l.next = 0
	})
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr(l.name) }

// pipeAddr is a pipe's name as a net.Addr.
type pipeAddr string

func (a pipeAddr) Network() string { return "pipe" }
func (a pipeAddr) String() string  { return string(a) }

// pipeConn is one end of a pipe instance: an overlapped handle, read and
// written through the runtime's poller as a file, with deadlines. The
// file is not embedded: its other methods (WriteString, ReadFrom) would
// write past Write.
type pipeConn struct {
	f    *os.File
	h    windows.Handle
	name string
}

func newPipeConn(h windows.Handle, name string) *pipeConn {
	return &pipeConn{f: os.NewFile(uintptr(h), name), h: h, name: name}
}

func (c *pipeConn) Read(p []byte) (int, error) { return c.f.Read(p) }

// Write writes p as one message; nothing for an empty p, which would be
// the end of what this side sends (see CloseWrite).
func (c *pipeConn) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	return c.f.Write(p)
}

func (c *pipeConn) Close() error                       { return c.f.Close() }
func (c *pipeConn) SetDeadline(t time.Time) error      { return c.f.SetDeadline(t) }
func (c *pipeConn) SetReadDeadline(t time.Time) error  { return c.f.SetReadDeadline(t) }
func (c *pipeConn) SetWriteDeadline(t time.Time) error { return c.f.SetWriteDeadline(t) }
func (c *pipeConn) LocalAddr() net.Addr                { return pipeAddr(c.name) }
func (c *pipeConn) RemoteAddr() net.Addr               { return pipeAddr(c.name) }

// CloseWrite tells the other end that nothing more will be sent: a
// message of no bytes, which it reads as io.EOF.
func (c *pipeConn) CloseWrite() error {
	ev, err := windows.CreateEvent(nil, 1, 0, nil)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(ev)
	ov := windows.Overlapped{HEvent: ev | 1} // |1: no completion packet for the poller
	var n uint32
	err = windows.WriteFile(c.h, nil, &n, &ov)
	if errors.Is(err, windows.ERROR_IO_PENDING) {
		err = windows.GetOverlappedResult(c.h, &ov, &n, true)
	}
	return err
}
