package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/config"
	"github.com/wikid/wikid/internal/mcpserver"
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

Over HTTP, a token (--token or WIKID_TOKEN) is required as
"Authorization: Bearer <token>"; wikid refuses to listen on an address
other than loopback without one. Browsers may call from localhost origins
and from those given with --allow-origin; other origins get 403.

Tool groups (--tools): notes, search, links, history, wiki (default: all).

Examples:
  wikid serve --repo ~/wiki
  wikid serve --repo ~/wiki --http 127.0.0.1:8765 --token "$(openssl rand -hex 16)"
  wikid serve --read-only --tools notes,search

Claude Desktop (claude_desktop_config.json):
  {"mcpServers": {"wiki": {"command": "wikid", "args": ["serve", "--repo", "/path/to/wiki"]}}}

Flags:
`
}

// serveFlags are the parsed flags of wikid serve.
type serveFlags struct {
	repo, httpAddr, token, tools, author, logLevel string
	httpSet, readOnly                              bool
	origins                                        stringList
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
	fs.StringVar(&f.tools, "tools", "", "comma-separated tool groups to serve: notes, search, links, history, wiki (default all)")
	fs.StringVar(&f.author, "author", "", `commit author for every change, "Name <email>" (default: the MCP client's name)`)
	fs.StringVar(&f.logLevel, "log-level", "info", "log level on standard error: debug, info, warn or error")
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
	return f, nil
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
	opts := mcpserver.Options{ReadOnly: f.readOnly, Logger: logger, Version: version}
	if f.tools != "" {
		for _, g := range strings.Split(f.tools, ",") {
			if g = strings.TrimSpace(g); g != "" {
				opts.Groups = append(opts.Groups, g)
			}
		}
	}
	if f.author != "" {
		if opts.Author, err = parseIdentity(f.author); err != nil {
			return err
		}
	}
	if err := opts.Validate(); err != nil {
		return err
	}
	if f.httpSet {
		if err := checkBind(f.httpAddr, f.token); err != nil {
			return err
		}
	}

	w, err := openWiki(ctx, c.env, f.repo, func(cfg *config.Config) { cfg.ReadOnly = cfg.ReadOnly || f.readOnly })
	if err != nil {
		return err
	}
	opts.ReadOnly = w.Options().ReadOnly
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

// serveHTTP listens on f.httpAddr until ctx is done, then stops accepting,
// lets the requests in flight finish and returns.
func serveHTTP(ctx context.Context, e env, logger *slog.Logger, srv *mcpserver.Server, f *serveFlags) error {
	ln, err := net.Listen("tcp", f.httpAddr)
	if err != nil {
		return err
	}
	h := srv.HTTPHandler(mcpserver.HTTPOptions{Token: f.token, AllowedOrigins: f.origins})
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
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

// parseIdentity reads "Name <email>".
func parseIdentity(s string) (wiki.Identity, error) {
	name, rest, ok := strings.Cut(s, "<")
	email, tail, ok2 := strings.Cut(rest, ">")
	id := wiki.Identity{Name: strings.TrimSpace(name), Email: strings.TrimSpace(email)}
	if !ok || !ok2 || strings.TrimSpace(tail) != "" || id.Name == "" || id.Email == "" {
		return wiki.Identity{}, fmt.Errorf("--author %q: want \"Name <email>\"", s)
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
