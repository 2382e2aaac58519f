package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/config"
	"github.com/wikid/wikid/internal/daemon"
	"github.com/wikid/wikid/internal/gitsync"
	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/profiles/table"
	"github.com/wikid/wikid/internal/wiki"
)

// defaultHTTPAddr is where --http= (empty) listens.
const defaultHTTPAddr = "127.0.0.1:8765"

// shutdownTimeout bounds how long a signal waits for requests in flight.
const shutdownTimeout = 30 * time.Second

type serveCommand struct{ env }

func (c *serveCommand) Usage() string {
	return `Usage: wikid serve [flags]

Serves the wiki to MCP clients: over standard input and output by default
(the client starts wikid), or over streamable HTTP at /mcp with --http.
Every change a client makes is one git commit, with the client as author
(unless --author says otherwise) and a Wiki-Client trailer naming it.

Over standard input and output, wikid connects to the repository's daemon
(see 'wikid help daemon'), starting it when none runs, and relays the MCP
stream: every client of the repository shares one daemon, its search index
and its history, warm from the first call. When no daemon can be started,
or with --no-daemon, wikid serves in its own process and says so.

With --http, this process is the repository's daemon, in the foreground:
it serves HTTP, and stdio clients and commands share it too. When a daemon
already serves the repository, serve --http says so at once, with its pid
and addresses, and exits: start the HTTP daemon before its stdio clients.
Over HTTP, a token (--token or WIKID_TOKEN) is required as
"Authorization: Bearer <token>"; wikid refuses to listen on an address
other than loopback without one. Browsers may call from localhost origins
and from those given with --allow-origin; other origins get 403.

Tool groups (--tools): notes, search, links, history, wiki (default: all).

Profiles (--profile) serve the exact tool contract of another notes server,
so that its clients, prompts and agents work unchanged, with every change
still one git commit: wikid (the default, wikid's own tools), cairn,
braindrive, wiki-ai, roux or obsidian. Over HTTP, /mcp serves the --profile
given and /mcp/NAME each profile by name.

Examples:
  wikid serve --repo ~/wiki
  wikid serve --repo ~/wiki --http 127.0.0.1:8765 --token "$(openssl rand -hex 16)"
  wikid serve --read-only --tools notes,search
  wikid serve --profile cairn

Claude Desktop (claude_desktop_config.json):
  {"mcpServers": {"wiki": {"command": "wikid", "args": ["serve", "--repo", "/path/to/wiki"]}}}

Flags:
`
}

// serveFlags are the parsed flags of wikid serve.
type serveFlags struct {
	repo, httpAddr, token, tools, author, logLevel, profile string
	httpSet, readOnly, noDaemon, propose                    bool
	origins                                                 stringList
}

// stringList is a flag that may be given several times.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

func (c *serveCommand) parse(args []string) (*serveFlags, error) {
	fs := newFlagSet("serve", c.Usage(), c.stderr)
	f := &serveFlags{}
	repo := repoFlag(fs, c.env)
	fs.StringVar(&f.httpAddr, "http", "", "serve streamable HTTP at ADDR (host:port) instead of stdio; use 127.0.0.1:8765, or --http= for that default")
	fs.StringVar(&f.token, "token", "", "bearer token HTTP clients must send (default $WIKID_TOKEN); required to listen beyond loopback")
	fs.Var(&f.origins, "allow-origin", "a browser origin allowed besides localhost, e.g. https://app.example.com (repeatable)")
	fs.BoolVar(&f.readOnly, "read-only", false, "refuse every change and hide the tools that change notes")
	fs.BoolVar(&f.propose, "propose", false, "make every change a proposal that waits for you (wikid proposals)")
	fs.StringVar(&f.profile, "profile", mcpserver.ProfileWikid, "the tool set to serve: "+strings.Join(table.Profiles().Names(), ", ")+
		" (over HTTP, every profile is served, the others at /mcp/NAME)")
	fs.StringVar(&f.tools, "tools", "", "comma-separated tool groups to serve: notes, search, links, history, wiki (default all)")
	fs.StringVar(&f.author, "author", "", `commit author for every change, "Name <email>" (default: the MCP client's name)`)
	fs.StringVar(&f.logLevel, "log-level", "info", "log level on standard error: debug, info, warn or error")
	fs.BoolVar(&f.noDaemon, "no-daemon", false, "serve in this process instead of through the repository's daemon (default $WIKID_NO_DAEMON)")
	if err := parseArgs(fs, args, 0, 0); err != nil {
		return nil, err
	}
	f.repo = *repo
	fs.Visit(func(fl *flag.Flag) { f.httpSet = f.httpSet || fl.Name == "http" })
	if f.httpSet && f.httpAddr == "" {
		f.httpAddr = defaultHTTPAddr
	}
	if !f.httpSet && (f.token != "" || len(f.origins) > 0) {
		return nil, errors.New("--token and --allow-origin apply to --http only")
	}
	if f.token == "" && f.httpSet {
		f.token = c.getenv("WIKID_TOKEN")
	}
	f.noDaemon = f.noDaemon || noDaemonEnv(c.env)
	return f, nil
}

// noDaemonEnv reports whether WIKID_NO_DAEMON asks for no daemon.
func noDaemonEnv(e env) bool {
	v := e.getenv("WIKID_NO_DAEMON")
	return v != "" && v != "0" && v != "false"
}

// mcpOptions are the server options the flags ask for.
func (f *serveFlags) mcpOptions() (mcpserver.Options, error) {
	opts := mcpserver.Options{ReadOnly: f.readOnly, Version: version, Profiles: table.Profiles(), Profile: f.profile, Propose: f.propose}
	for _, g := range strings.Split(f.tools, ",") {
		if g = strings.TrimSpace(g); g != "" {
			opts.Groups = append(opts.Groups, g)
		}
	}
	if f.author != "" {
		id, err := parseIdentity(f.author)
		if err != nil {
			return opts, err
		}
		opts.Author = id
	}
	return opts, opts.Validate()
}

func (c *serveCommand) Run(ctx context.Context, args []string) error {
	f, err := c.parse(args)
	if err != nil {
		return err
	}
	logger, err := newLogger(c.env, f.logLevel)
	if err != nil {
		return err
	}
	opts, err := f.mcpOptions()
	if err != nil {
		return err
	}
	opts.Logger = logger
	if f.httpSet {
		if err := checkBind(f.httpAddr, f.token); err != nil {
			return err
		}
		if !f.noDaemon {
			return runDaemon(ctx, c.env, logger, daemonSettings{repo: f.repo, idle: 0, http: &daemon.HTTP{
				Addr: f.httpAddr, HTTPOptions: mcpserver.HTTPOptions{Token: f.token, AllowedOrigins: f.origins}}, readOnly: f.readOnly, mcp: opts})
		}
	} else if !f.noDaemon {
		err := c.bridge(ctx, f, opts.Groups)
		if !errors.Is(err, errNoDaemon) {
			return err
		}
		fmt.Fprintf(c.stderr, "wikid: %v; serving in this process instead\n", err)
	}
	w, err := openWikiWith(ctx, c.env, f.repo, true, func(cfg *config.Config) { cfg.ReadOnly = cfg.ReadOnly || f.readOnly })
	if err != nil {
		return lockedIndex(ctx, c.env, f.repo, err)
	}
	opts.ReadOnly = w.Options().ReadOnly
	if !opts.ReadOnly {
		opts.Sync = gitsync.New(w, gitsync.Options{Dir: repositoryFolder(w.GitDir()), Logger: logger.WithGroup("sync")})
		w.SetSyncReporter(opts.Sync)
	}
	srv := mcpserver.New(w, opts)
	if f.httpSet {
		err = serveHTTP(ctx, c.env, logger, srv, f)
	} else {
		logger.Info("serving MCP on standard input and output", "repo", f.repo, "read_only", opts.ReadOnly)
		err = srv.ServeStdio(ctx, c.stdin, c.stdout)
	}
	// Close waits for the write in flight, if any, and closes the index.
	closeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	defer cancel()
	if cerr := w.Close(closeCtx); cerr != nil {
		logger.Error("closing the wiki", "err", cerr)
	}
	return err
}

// errNoDaemon marks why the bridge could not reach a daemon.
var errNoDaemon = errors.New("no daemon")

// bridge relays the MCP stream between standard input and output and the
// repository's daemon, starting the daemon when none runs. It returns an
// error wrapping errNoDaemon when there is none and none can be started.
func (c *serveCommand) bridge(ctx context.Context, f *serveFlags, groups []string) error {
	ep, err := endpoint(c.env, f.repo)
	if err != nil {
		return fmt.Errorf("%w: %v", errNoDaemon, err)
	}
	o := daemon.MCPOptions{ReadOnly: f.readOnly, Tools: groups, Author: f.author, Profile: f.profile, Propose: f.propose}
	conn, err := daemon.ConnectMCP(ctx, ep, o)
	if errors.Is(err, daemon.ErrNotRunning) {
		if serr := startDaemon(ctx, c.env, ep, f.repo); serr != nil {
			return fmt.Errorf("%w: the daemon could not be started: %v", errNoDaemon, serr)
		}
		conn, err = daemon.ConnectMCP(ctx, ep, o)
	}
	if err != nil {
		return fmt.Errorf("%w: %v", errNoDaemon, err)
	}
	if conn.Version != "" && conn.Version != version {
		fmt.Fprintf(c.stderr, "wikid: the daemon of this repository runs wikid %s, and this is %s; "+
			"it is replaced when it exits (10 minutes after its last client, or 'wikid daemon stop')\n", conn.Version, version)
	}
	first := conn
	br := &daemon.Bridge{
		Connect: func(ctx context.Context) (*daemon.Conn, error) {
			if dc := first; dc != nil {
				first = nil
				return dc, nil
			}
			dc, err := daemon.ConnectMCP(ctx, ep, o)
			if errors.Is(err, daemon.ErrNotRunning) {
				if err := startDaemon(ctx, c.env, ep, f.repo); err != nil {
					return nil, err
				}
				dc, err = daemon.ConnectMCP(ctx, ep, o)
			}
			return dc, err
		},
		Logf: func(format string, args ...any) { fmt.Fprintf(c.stderr, "wikid: "+format+"\n", args...) },
	}
	return br.Run(ctx, c.stdin, c.stdout)
}

// serveHTTP listens on f.httpAddr until ctx is done, then stops accepting,
// lets the requests in flight finish and returns.
func serveHTTP(ctx context.Context, e env, logger *slog.Logger, srv *mcpserver.Server, f *serveFlags) error {
	ln, err := net.Listen("tcp", f.httpAddr)
	if err != nil {
		return err
	}
	h := srv.HTTPHandler(mcpserver.HTTPOptions{Token: f.token, AllowedOrigins: f.origins})
	hs := mcpserver.NewHTTPServer(h, slog.NewLogLogger(logger.Handler(), slog.LevelWarn))
	url := "http://" + ln.Addr().String() + mcpserver.HTTPPath
	fmt.Fprintf(e.stderr, "wikid: serving MCP at %s\n", url)
	logger.Info("serving MCP over HTTP", "url", url, "token", f.token != "", "repo", f.repo)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down: finishing the requests in flight")
	shCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	defer cancel()
	h.Close(shCtx)
	if err := hs.Shutdown(shCtx); err != nil {
		return fmt.Errorf("shut down HTTP: %w", err)
	}
	return nil
}

// checkBind refuses to listen beyond loopback without a token.
func checkBind(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %q: want host:port, such as %s", addr, defaultHTTPAddr)
	}
	if token != "" || isLoopback(host) {
		return nil
	}
	return fmt.Errorf("refusing to serve on %s without a token: anyone who can reach it could change the wiki. "+
		"Set --token or WIKID_TOKEN, or listen on loopback (--http %s)", addr, defaultHTTPAddr)
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil && ip.IsLoopback()
}

// parseIdentity reads the --author flag, "Name <email>".
func parseIdentity(s string) (wiki.Identity, error) {
	id, err := wiki.ParseIdentity(s)
	if err != nil {
		return wiki.Identity{}, fmt.Errorf("--author %w", err)
	}
	return id, nil
}

func newLogger(e env, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level %q: want debug, info, warn or error", level)
	}
	return slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: l})), nil
}
