package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/procid"
	"github.com/wikid/wikid/internal/wiki"
)

// shutdownTimeout bounds how long stopping waits for requests in flight.
const shutdownTimeout = 30 * time.Second

// Options configure a daemon.
type Options struct {
	Endpoint Endpoint
	// Lock is the endpoint's daemon lock, which the caller took with
	// Acquire before it opened the wiki, and lets go of after closing it.
	Lock *Lock
	// Repository is the repository's folder, as status reports it.
	Repository string
	// Wiki is the repository's wiki, opened by the caller, who closes it
	// after Serve returns.
	Wiki *wiki.Wiki
	// MCP is the base of every MCP connection's server options; a
	// connection's MCPOptions narrow it.
	MCP mcpserver.Options
	// Idle is how long the daemon waits after its last client left before
	// it exits; zero means it never does. Over HTTP, a request in flight
	// (a page, or an MCP call or stream at /mcp) is a client, so the
	// daemon exits Idle after the last one ended when nothing else is
	// connected.
	Idle time.Duration
	// HTTP, if set, is also served, over TCP, with these options. A
	// daemon without it adds it when a client asks (AddHTTP).
	HTTP *HTTP
	// Pages, if set, makes the web pages served at / beside MCP's /mcp on
	// the HTTP listener, given its options; status gives their address,
	// with a sign-in link when they need one.
	Pages func(HTTP) Pages
	// RunCommand runs a command line for a client and returns its exit
	// status; nil refuses commands.
	RunCommand func(ctx context.Context, cmd Command, stdin io.Reader, stdout, stderr io.Writer) int
	// Ready, if set, is called once the socket accepts connections, with
	// the URL of the MCP endpoint served over HTTP ("" if none).
	Ready  func(httpURL string)
	Logger *slog.Logger
}

// Pages are the web pages of the wiki (package web).
type Pages interface {
	http.Handler
	// SignInLink returns a link to the pages from their base URL that
	// signs a browser in when they need it.
	SignInLink(base string) string
}

// HTTP is the daemon's HTTP listener.
type HTTP struct {
	// Addr is the address to listen at (host:port; port 0 for a free one).
	Addr string `json:"addr"`
	mcpserver.HTTPOptions
}

// Status describes a running daemon.
type Status struct {
	PID        int       `json:"pid"`
	Started    time.Time `json:"started"`
	Uptime     string    `json:"uptime"`
	Version    string    `json:"version"`
	Repository string    `json:"repository"`
	GitDir     string    `json:"git_dir"`
	Socket     string    `json:"socket"`
	Log        string    `json:"log"`
	// HTTP is the URL of the MCP endpoint served over HTTP, "" if none.
	HTTP string `json:"http,omitempty"`
	// Web is the address of the web pages, a one-time sign-in link when
	// they need one; "" without HTTP.
	Web string `json:"web,omitempty"`
	// Clients counts the connections open now: MCP clients through the
	// bridge, and commands running.
	Clients struct {
		MCP int `json:"mcp"`
		CLI int `json:"cli"`
		// HTTP counts the live HTTP sessions.
		HTTP int `json:"http"`
	} `json:"clients"`
	// Idle is how long the daemon stays up without clients; "" for ever.
	Idle    string             `json:"idle,omitempty"`
	Index   wiki.IndexStatus   `json:"index"`
	History wiki.DerivedStatus `json:"history"`
	Graph   wiki.DerivedStatus `json:"graph"`
	// Links says how wiki links resolve: obsidian or wiki.
	Links wiki.LinkResolution `json:"links,omitempty"`
	// Semantic is the semantic index's state; nil without semantic search.
	Semantic *wiki.SemanticState `json:"semantic,omitempty"`
	Blocked  string              `json:"blocked,omitempty"`
	// RSS and PeakRSS are the process's resident memory now and at most,
	// in bytes; 0 where the system does not say.
	RSS     int64 `json:"rss"`
	PeakRSS int64 `json:"peak_rss"`
	// Starting is set by Lookup for a process that holds the daemon lock
	// but whose socket does not answer yet: it is opening the repository
	// (or closing it, stopping). Only PID, GitDir, Socket and Log are
	// known then.
	Starting bool `json:"starting,omitempty"`
}

// daemon is a running daemon.
type daemon struct {
	opts    Options
	log     *slog.Logger
	started time.Time
	stop    context.CancelFunc

	// addHTTP serialises adding the HTTP listener.
	addHTTP sync.Mutex

	mu       sync.Mutex
	servers  map[string]*mcpserver.Server // by MCPOptions
	conns    map[net.Conn]string          // open client connections, by kind
	requests int                          // HTTP requests in flight
	idle     *time.Timer
	idleGen  int // which arming of the idle timer is current
	closing  bool
	// The HTTP listener, once there is one.
	hs      *http.Server
	http    *mcpserver.HTTPHandler
	pages   Pages  // nil without pages
	httpURL string // the MCP endpoint's URL
	baseURL string // the listener's scheme and address
}

// Serve runs the daemon until ctx is done, a client asks it to stop, or it
// has been idle for opts.Idle. It returns an error without opts.Lock, or
// when it cannot listen. When it returns, the socket is gone and no
// request is in flight.
func Serve(ctx context.Context, opts Options) error {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Lock == nil {
		return errors.New("daemon: serve without the daemon lock")
	}
	if opts.MCP.Orphans == nil {
		// One for every connection: a client whose bridge went away in
		// the middle of a change comes back on another connection, whose
		// reads wait for the change.
		opts.MCP.Orphans = &mcpserver.Orphans{}
	}
	// The lock is ours: a socket file still there is a dead daemon's,
	// which listenSocket replaces.
	ln, err := listenSocket(opts.Endpoint.Socket)
	if err != nil {
		return fmt.Errorf("daemon socket: %w", err)
	}
	defer removeSocket(opts.Endpoint.Socket)
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	d := &daemon{
		opts: opts, log: opts.Logger.WithGroup("daemon"), started: time.Now(),
		servers: map[string]*mcpserver.Server{}, conns: map[net.Conn]string{}, stop: stop,
	}
	if opts.HTTP != nil {
		if err := d.listenHTTP(*opts.HTTP); err != nil {
			ln.Close()
			return err
		}
	}
	// The record last, once the socket answers: a client that reads it
	// connects at once. It goes first when the daemon stops.
	rec := Record{Socket: opts.Endpoint.Socket, Log: opts.Endpoint.Log,
		Process: procid.Self().String(), Host: procid.Host(), Version: opts.MCP.Version}
	if err := writeRecord(opts.Endpoint, rec); err != nil {
		d.log.Warn("clients of other environments will not find this daemon", "err", err)
	}
	defer removeRecord(opts.Endpoint)
	relock := make(chan *Lock, 1)
	go func() { relock <- keepRecord(ctx, opts.Endpoint, opts.Lock, rec, d.log) }()
	defer func() {
		stop() // Serve may return with ctx not done: after an accept error
		if l := <-relock; l != nil {
			l.Release()
		}
	}()
	d.log.Info("daemon started", "pid", os.Getpid(), "socket", opts.Endpoint.Socket, "git_dir", opts.Endpoint.GitDir, "idle", opts.Idle)
	d.armIdle()
	if opts.Ready != nil {
		opts.Ready(d.httpURL)
	}

	var wg sync.WaitGroup
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	for {
		conn, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			d.log.Error("accept", "err", err)
			break
		}
		wg.Go(func() { d.serveConn(ctx, conn) })
	}
	removeRecord(opts.Endpoint)
	d.log.Info("daemon stopping: finishing the requests in flight")
	d.closeReads()
	shCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	defer cancel()
	d.addHTTP.Lock()
	d.mu.Lock()
	d.closing = true
	hs, hh := d.hs, d.http
	d.mu.Unlock()
	d.addHTTP.Unlock()
	if hs != nil {
		hh.Close(shCtx)
		_ = hs.Shutdown(shCtx)
	}
	wg.Wait()
	return nil
}

// listenHTTP listens at h.Addr and serves MCP at /mcp there, and the pages
// at / when the daemon has them. It returns an error when it cannot
// listen, when the daemon serves HTTP already, or when it is stopping.
func (d *daemon) listenHTTP(h HTTP) error {
	d.addHTTP.Lock()
	defer d.addHTTP.Unlock()
	d.mu.Lock()
	busy, closing := d.hs != nil, d.closing
	d.mu.Unlock()
	switch {
	case busy:
		return errors.New("the daemon serves HTTP already")
	case closing:
		return errors.New("the daemon is stopping")
	}
	tcp, err := net.Listen("tcp", h.Addr)
	if err != nil {
		return err
	}
	srv, _ := d.server(MCPOptions{})
	hh := srv.HTTPHandler(h.HTTPOptions)
	var handler http.Handler = hh
	var pages Pages
	if d.opts.Pages != nil {
		pages = d.opts.Pages(h)
		mux := http.NewServeMux()
		mux.Handle(mcpserver.HTTPPath, hh)
		mux.Handle(mcpserver.HTTPPath+"/", hh)
		mux.Handle("/", pages)
		handler = mux
	}
	hs := mcpserver.NewHTTPServer(d.counted(handler), slog.NewLogLogger(d.opts.Logger.Handler(), slog.LevelWarn))
	base := "http://" + tcp.Addr().String()
	d.mu.Lock()
	d.hs, d.http, d.pages = hs, hh, pages
	d.baseURL, d.httpURL = base, base+mcpserver.HTTPPath
	d.mu.Unlock()
	go func() {
		if err := hs.Serve(tcp); err != nil && !errors.Is(err, http.ErrServerClosed) {
			d.log.Error("HTTP server", "err", err)
			d.stop()
		}
	}()
	d.log.Info("serving MCP over HTTP", "url", base+mcpserver.HTTPPath, "token", h.Token != "", "pages", pages != nil)
	return nil
}

// counted counts the HTTP requests in flight as clients, for the idle
// timer: the daemon exits no sooner than Idle after the last one ended.
func (d *daemon) counted(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.mu.Lock()
		d.requests++
		d.disarmIdle()
		d.mu.Unlock()
		defer func() {
			d.mu.Lock()
			d.requests--
			d.mu.Unlock()
			d.armIdle()
		}()
		next.ServeHTTP(w, r)
	})
}

// server returns the MCP server for a connection's options, made once per
// distinct options.
func (d *daemon) server(o MCPOptions) (*mcpserver.Server, error) {
	key, _ := json.Marshal(o)
	d.mu.Lock()
	defer d.mu.Unlock()
	if s, ok := d.servers[string(key)]; ok {
		return s, nil
	}
	opts := d.opts.MCP
	opts.ReadOnly = opts.ReadOnly || o.ReadOnly
	if len(o.Tools) > 0 {
		opts.Groups = o.Tools
	}
	opts.Profile = o.Profile
	opts.Propose = opts.Propose || o.Propose
	if o.Author != "" {
		id, err := wiki.ParseIdentity(o.Author)
		if err != nil {
			return nil, err
		}
		opts.Author = id
	}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	s := mcpserver.New(d.opts.Wiki, opts)
	d.servers[string(key)] = s
	return s, nil
}

// serveConn serves one connection.
func (d *daemon) serveConn(ctx context.Context, conn net.Conn) {
	defer conn.Close()
	br := bufio.NewReader(conn)
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	var h hello
	if err := readLine(br, &h); err != nil {
		d.log.Debug("bad hello", "err", err)
		_ = writeLine(conn, reply{Error: fmt.Sprintf("daemon protocol: %v", err)})
		return
	}
	_ = conn.SetReadDeadline(time.Time{})
	if h.Protocol != protocolVersion {
		_ = writeLine(conn, reply{Error: fmt.Sprintf("this daemon speaks protocol %d and the client %d: "+
			"stop it with 'wikid daemon stop' and run the same wikid for both", protocolVersion, h.Protocol)})
		return
	}
	switch h.Kind {
	case kindStatus:
		st := d.status(ctx)
		_ = writeLine(conn, reply{Status: &st})
	case kindStop:
		_ = writeLine(conn, reply{})
		d.log.Info("stop requested by a client")
		d.stop()
	case kindHTTP:
		if h.HTTP == nil {
			_ = writeLine(conn, reply{Error: "daemon protocol: an HTTP request without its address"})
			return
		}
		d.mu.Lock()
		serving := d.hs != nil
		d.mu.Unlock()
		if !serving {
			if err := d.listenHTTP(*h.HTTP); err != nil {
				d.mu.Lock()
				serving = d.hs != nil // another client's request won
				d.mu.Unlock()
				if !serving {
					_ = writeLine(conn, reply{Error: fmt.Sprintf("serve HTTP at %s: %v", h.HTTP.Addr, err)})
					return
				}
			}
		}
		st := d.status(ctx)
		_ = writeLine(conn, reply{Status: &st})
	case kindMCP:
		o := MCPOptions{}
		if h.MCP != nil {
			o = *h.MCP
		}
		srv, err := d.server(o)
		if err != nil {
			_ = writeLine(conn, reply{Error: err.Error()})
			return
		}
		if err := writeLine(conn, reply{Version: d.opts.MCP.Version}); err != nil {
			return
		}
		d.track(conn, kindMCP)
		defer d.untrack(conn)
		if err := srv.ServeStdio(ctx, br, conn); err != nil {
			d.log.Debug("MCP connection ended", "err", err)
		}
	case kindCLI:
		if h.CLI == nil || d.opts.RunCommand == nil {
			_ = writeLine(conn, reply{Error: "this daemon runs no commands"})
			return
		}
		if err := writeLine(conn, reply{}); err != nil {
			return
		}
		d.track(conn, kindCLI)
		defer d.untrack(conn)
		d.runCommand(ctx, conn, br, *h.CLI)
	default:
		_ = writeLine(conn, reply{Error: fmt.Sprintf("daemon protocol: unknown kind %q", h.Kind)})
	}
}

// runCommand runs a client's command line: its output goes back as frames,
// its standard input is asked for when the command reads it, and the exit
// status ends the exchange. A client that goes away cancels the command.
func (d *daemon) runCommand(ctx context.Context, conn net.Conn, br *bufio.Reader, cmd Command) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	fw := &frameWriter{w: conn}
	pr, pw := io.Pipe()
	go func() {
		for {
			kind, p, err := readFrame(br)
			if err != nil {
				pw.CloseWithError(io.ErrUnexpectedEOF)
				cancel() // the client is gone
				return
			}
			switch kind {
			case frameStdin:
				if _, err := pw.Write(p); err != nil {
					continue // the command stopped reading; drain the rest
				}
			case frameStdinEOF:
				pw.Close()
			}
		}
	}()
	stdin := &lazyStdin{ask: func() error { return fw.frame(frameWantStdin, nil) }, r: pr}
	code := d.opts.RunCommand(ctx, cmd, stdin, stream{fw, frameStdout}, stream{fw, frameStderr})
	var p [4]byte
	p[0], p[1], p[2], p[3] = byte(code>>24), byte(code>>16), byte(code>>8), byte(code)
	_ = fw.frame(frameExit, p[:])
	// Let the client read the exit before the connection closes.
	if hc, ok := conn.(interface{ CloseWrite() error }); ok {
		_ = hc.CloseWrite()
	}
}

// lazyStdin asks the client for its standard input on the first read, so
// that a command that reads none never waits on a terminal.
type lazyStdin struct {
	once sync.Once
	ask  func() error
	err  error
	r    io.Reader
}

func (l *lazyStdin) Read(p []byte) (int, error) {
	l.once.Do(func() { l.err = l.ask() })
	if l.err != nil {
		return 0, l.err
	}
	return l.r.Read(p)
}

// track counts a client connection and disarms the idle timer.
func (d *daemon) track(conn net.Conn, kind string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.conns[conn] = kind
	d.disarmIdle()
}

// untrack forgets a client connection; the last one leaving arms the idle
// timer.
func (d *daemon) untrack(conn net.Conn) {
	d.mu.Lock()
	delete(d.conns, conn)
	d.mu.Unlock()
	d.armIdle()
}

// disarmIdle stops the idle timer; d.mu is held.
func (d *daemon) disarmIdle() {
	d.idleGen++
	if d.idle != nil {
		d.idle.Stop()
	}
}

// armIdle starts the idle timer when no client is connected and no HTTP
// request is in flight.
func (d *daemon) armIdle() {
	if d.opts.Idle <= 0 {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.conns) > 0 || d.requests > 0 || d.closing {
		return
	}
	d.disarmIdle()
	gen := d.idleGen
	d.idle = time.AfterFunc(d.opts.Idle, func() {
		d.mu.Lock()
		idle := gen == d.idleGen && len(d.conns) == 0 && d.requests == 0
		d.mu.Unlock()
		if idle {
			d.log.Info("no client for a while: exiting", "idle", d.opts.Idle)
			d.stop()
		}
	})
}

// closeReads ends the input of every open connection, so that MCP sessions
// stop reading and finish the calls in flight, and commands are cancelled.
func (d *daemon) closeReads() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.disarmIdle()
	for c := range d.conns {
		if uc, ok := c.(*net.UnixConn); ok {
			_ = uc.CloseRead()
		} else {
			_ = c.SetReadDeadline(time.Now())
		}
	}
}

// status describes the daemon now.
func (d *daemon) status(ctx context.Context) Status {
	st := Status{
		PID: os.Getpid(), Started: d.started, Uptime: time.Since(d.started).Round(time.Second).String(),
		Version: d.opts.MCP.Version, GitDir: d.opts.Endpoint.GitDir, Repository: d.opts.Repository,
		Socket: d.opts.Endpoint.Socket, Log: d.opts.Endpoint.Log,
	}
	if d.opts.Idle > 0 {
		st.Idle = d.opts.Idle.String()
	}
	d.mu.Lock()
	for _, kind := range d.conns {
		if kind == kindMCP {
			st.Clients.MCP++
		} else {
			st.Clients.CLI++
		}
	}
	st.HTTP = d.httpURL
	pages, base, hh := d.pages, d.baseURL, d.http
	d.mu.Unlock()
	if pages != nil {
		st.Web = pages.SignInLink(base)
	}
	if hh != nil {
		st.Clients.HTTP = hh.Sessions()
	}
	st.Index, st.History, st.Graph, st.Blocked, _ = d.opts.Wiki.Derived(ctx)
	st.Links = d.opts.Wiki.LinkResolution()
	if sem, ok := d.opts.Wiki.SemanticState(); ok {
		st.Semantic = &sem
	}
	st.RSS, st.PeakRSS = memory()
	return st
}
