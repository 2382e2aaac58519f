package daemon

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// dialTimeout bounds connecting to a daemon and reading its reply.
const dialTimeout = 5 * time.Second

// Conn is a connection to a daemon after the handshake.
type Conn struct {
	net.Conn
	r *bufio.Reader
	// Version is the daemon's wikid version, when it said.
	Version string
}

// Read reads what the daemon sent after its reply.
func (c *Conn) Read(p []byte) (int, error) { return c.r.Read(p) }

// CloseWrite tells the daemon that nothing more will be sent.
func (c *Conn) CloseWrite() error {
	if hc, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return hc.CloseWrite()
	}
	return nil
}

// dial connects to the daemon at e and says hello. It returns an error
// wrapping ErrNotRunning when no daemon listens there.
func dial(ctx context.Context, e Endpoint, h hello) (*Conn, *reply, error) {
	e = Discover(e)
	ctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	c, err := dialSocket(ctx, e.Socket)
	if err != nil {
		if notListening(err) {
			return nil, nil, fmt.Errorf("%w (%s)", ErrNotRunning, e.Socket)
		}
		return nil, nil, fmt.Errorf("connect to the daemon: %w", err)
	}
	h.Protocol = protocolVersion
	_ = c.SetDeadline(time.Now().Add(dialTimeout))
	if err := writeLine(c, h); err != nil {
		c.Close()
		if wentAway(err) {
			return nil, nil, fmt.Errorf("%w (it went away: %v)", ErrNotRunning, err)
		}
		return nil, nil, fmt.Errorf("connect to the daemon: %w", err)
	}
	br := bufio.NewReader(c)
	var rep reply
	if err := readLine(br, &rep); err != nil {
		c.Close()
		if errors.Is(err, io.ErrUnexpectedEOF) || wentAway(err) {
			// It accepted, then died: a daemon that is going away.
			return nil, nil, fmt.Errorf("%w (it went away: %v)", ErrNotRunning, err)
		}
		return nil, nil, fmt.Errorf("connect to the daemon: %w", err)
	}
	_ = c.SetDeadline(time.Time{})
	if rep.Error != "" {
		c.Close()
		return nil, nil, errors.New(rep.Error)
	}
	return &Conn{Conn: c, r: br, Version: rep.Version}, &rep, nil
}

// ConnectMCP opens an MCP connection: what is written to it and read from
// it is the MCP stream, newline-delimited JSON-RPC as over stdio.
func ConnectMCP(ctx context.Context, e Endpoint, o MCPOptions) (*Conn, error) {
	c, _, err := dial(ctx, e, hello{Kind: kindMCP, MCP: &o})
	return c, err
}

// GetStatus asks the daemon at e how it is.
func GetStatus(ctx context.Context, e Endpoint) (*Status, error) {
	c, rep, err := dial(ctx, e, hello{Kind: kindStatus})
	if err != nil {
		return nil, err
	}
	c.Close()
	if rep.Status == nil {
		return nil, errors.New("the daemon sent no status")
	}
	return rep.Status, nil
}

// AddHTTP asks the daemon at e to serve HTTP at h.Addr, with h's token and
// origins, as a daemon started with Options.HTTP does: MCP at /mcp and its
// web pages at /. Its clients stay connected. It returns the daemon's
// status, whose HTTP and Web say where; a daemon that serves HTTP already
// keeps its listener and says where that is. It returns an error wrapping
// ErrNotRunning when no daemon runs, and the daemon's own when it cannot
// listen at h.Addr.
func AddHTTP(ctx context.Context, e Endpoint, h HTTP) (*Status, error) {
	c, rep, err := dial(ctx, e, hello{Kind: kindHTTP, HTTP: &h})
	if err != nil {
		return nil, err
	}
	c.Close()
	if rep.Status == nil {
		return nil, errors.New("the daemon sent no status")
	}
	return rep.Status, nil
}

// Lookup is GetStatus that also finds a daemon that does not answer yet:
// when a process holds e's daemon lock but its socket does not answer, it
// returns a Status with Starting set and the pid the holder wrote. It
// returns an error wrapping ErrNotRunning when no process holds the lock.
func Lookup(ctx context.Context, e Endpoint) (*Status, error) {
	st, err := GetStatus(ctx, e)
	if !errors.Is(err, ErrNotRunning) {
		return st, err
	}
	pid, held := Holder(e)
	if !held {
		return nil, err
	}
	return &Status{PID: pid, GitDir: e.GitDir, Socket: e.Socket, Log: e.Log, Starting: true}, nil
}

// Stop asks the daemon at e to stop and waits until it has: it closed the
// repository and let go of its lock. A daemon that holds the lock but does
// not answer yet is asked once it answers, or waited for when it is
// stopping already. It returns an error wrapping ErrNotRunning when none
// runs.
func Stop(ctx context.Context, e Endpoint) error {
	waited := false
	for {
		c, _, err := dial(ctx, e, hello{Kind: kindStop})
		if err == nil {
			c.Close()
			break
		}
		if !errors.Is(err, ErrNotRunning) {
			return err
		}
		if _, held := Holder(e); !held {
			if waited {
				return nil // it was stopping, and is gone
			}
			return err
		}
		waited = true
		select {
		case <-ctx.Done():
			return fmt.Errorf("the daemon holds its lock but does not answer: %w", ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
	for {
		if _, held := Holder(e); !held {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the daemon is still finishing its requests: %w", ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Run runs a command line in the daemon at e: standard input is sent when
// the command reads it, its output is written to stdout and stderr as it
// comes, and its exit status is returned.
func Run(ctx context.Context, e Endpoint, cmd Command, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	c, _, err := dial(ctx, e, hello{Kind: kindCLI, CLI: &cmd})
	if err != nil {
		return 0, err
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	fw := &frameWriter{w: c}
	for {
		kind, p, err := readFrame(c)
		if err != nil {
			if ctx.Err() != nil {
				return 0, ctx.Err()
			}
			return 0, fmt.Errorf("the daemon ended the command without an exit status (see its log): %w", err)
		}
		switch kind {
		case frameStdout:
			if _, err := stdout.Write(p); err != nil {
				return 0, err
			}
		case frameStderr:
			_, _ = stderr.Write(p)
		case frameWantStdin:
			go sendStdin(fw, stdin)
		case frameExit:
			if len(p) != 4 {
				return 0, errors.New("daemon protocol: bad exit frame")
			}
			return int(int32(uint32(p[0])<<24 | uint32(p[1])<<16 | uint32(p[2])<<8 | uint32(p[3]))), nil
		}
	}
}

// sendStdin copies stdin to the daemon as frames, then its end.
func sendStdin(fw *frameWriter, stdin io.Reader) {
	buf := make([]byte, 64<<10)
	for {
		n, err := stdin.Read(buf)
		if n > 0 {
			if fw.frame(frameStdin, buf[:n]) != nil {
				return
			}
		}
		if err != nil {
			_ = fw.frame(frameStdinEOF, nil)
			return
		}
	}
}

// maxSpawns bounds how many daemons Spawn starts in a row that find the
// lock held by one that then lets go of it without answering.
const maxSpawns = 5

// Spawn starts a daemon in the background, detached from the caller's
// session and terminal, by running exe with args, its output appended to
// the endpoint's log; then waits until a daemon answers at e. args run the
// daemon in the foreground; the daemon exits at once with status 0 when
// another process holds the lock (wikid's --if-not-running), having opened
// nothing: then Spawn waits for that one to answer, or, when it lets go of
// the lock without answering (it was stopping), starts another. It returns
// an error with the end of the log when the daemon exits otherwise, or
// when none answers within wait.
func Spawn(ctx context.Context, e Endpoint, exe string, args []string, env []string, wait time.Duration) error {
	logf, err := os.OpenFile(e.Log, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("daemon log: %w", err)
	}
	defer logf.Close()
	start := func() (<-chan error, error) {
		cmd := exec.Command(exe, args...)
		cmd.Env = env
		cmd.Dir = filepath.VolumeName(exe) + string(filepath.Separator)
		cmd.Stdout, cmd.Stderr = logf, logf
		cmd.SysProcAttr = detached()
		if err := cmd.Start(); err != nil {
			return nil, fmt.Errorf("start the daemon: %w", err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		return exited, nil
	}
	exited, err := start()
	if err != nil {
		return err
	}
	spawns := 1
	deadline := time.After(wait)
	for {
		if _, err := GetStatus(ctx, e); err == nil {
			return nil
		}
		if exited == nil {
			// Ours found the lock held: the holder answers once it has
			// opened the repository, unless it was stopping.
			if _, held := Holder(e); !held {
				if spawns == maxSpawns {
					return fmt.Errorf("%d daemons in a row found the lock held by one that went away without answering (see %s)", spawns, e.Log)
				}
				if exited, err = start(); err != nil {
					return err
				}
				spawns++
			}
		}
		select {
		case err := <-exited:
			if err != nil {
				return fmt.Errorf("the daemon exited (%v): %s", err, logTail(e.Log))
			}
			exited = nil // another daemon holds the lock
		case <-deadline:
			return fmt.Errorf("the daemon did not answer within %v (see %s)", wait, e.Log)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// logTail returns the last lines of a log file, for an error message.
func logTail(name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		return "no log"
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	return strings.Join(lines, "\n")
}
