package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/config"
	"github.com/wikid/wikid/internal/daemon"
	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gitsync"
	"github.com/wikid/wikid/internal/index"
	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/profiles/table"
	"github.com/wikid/wikid/internal/web"
	"github.com/wikid/wikid/internal/wiki"
)

// defaultIdle is how long a daemon started in the background stays up
// after its last client left.
const defaultIdle = 10 * time.Minute

// gcPercent is the daemon's GOGC unless the environment sets one: the heap
// may grow by half over what is live before a collection, not double, so a
// long-lived daemon does not hold twice what it keeps.
const gcPercent = 50

// memoryLimit is the daemon's soft memory limit unless GOMEMLIMIT sets
// one: near it the collector works harder, which bounds the first build of
// a very large wiki (100,000 notes keep about 600 MiB live). A limit below
// what a wiki keeps live makes the collector run without pause: 256 MiB
// made that build twice as slow.
const memoryLimit = 768 << 20

type daemonCommand struct{ env }

func (c *daemonCommand) Usage() string {
	return `Usage: wikid daemon start|stop|status [flags]

The daemon is the one wikid process of a repository: it owns the writer,
the search index, the history index and the link graph, and every client
shares it. 'wikid serve' (stdio) connects MCP clients to it, starting it
when none runs, and every other command runs in it while it runs, so
that they answer at once and agree with each other. It listens on a unix
socket only you can open, in $XDG_RUNTIME_DIR/wikid (or WIKID_RUNTIME_DIR).

  start    start the daemon in the background (or, with --foreground, run
           it in this process: for systemd or launchd); started in the
           background it exits 10 minutes (--idle) after its last client.
           When a daemon already serves the repository, or is starting,
           start says so at once, with its pid, having opened nothing
           (--if-not-running: and exits with status 0)
  stop     ask the daemon to stop; it finishes the requests in flight (MCP
           clients still connected start a new one: a way to run a new wikid)
  status   pid, uptime, addresses, clients, index states and memory
           (--json for all);
           a daemon that holds the repository's lock but does not answer
           yet is reported as starting

With WIKID_HEAP_PROFILE=FILE in its environment, a daemon writes a heap
profile of what it keeps to FILE once its indexes are built (for go tool
pprof).

Examples:
  wikid daemon start --repo ~/wiki
  wikid daemon start --repo ~/wiki --foreground --idle 0
  wikid daemon start --repo ~/wiki --http 127.0.0.1:8765
  wikid daemon status --repo ~/wiki

Flags:
`
}

// daemonSettings are what a daemon runs with.
type daemonSettings struct {
	repo     string
	idle     time.Duration
	http     *daemon.HTTP
	readOnly bool
	mcp      mcpserver.Options
	// ifNotRunning makes a process that finds another daemon holding the
	// lock exit quietly, with no error: a daemon that a client starts.
	ifNotRunning bool
}

func (c *daemonCommand) Run(ctx context.Context, args []string) error {
	fs := newFlagSet("daemon", c.Usage(), c.stderr)
	repo := repoFlag(fs, c.env)
	foreground := fs.Bool("foreground", false, "start: run the daemon in this process until it is stopped or a signal ends it")
	idle := fs.Duration("idle", -1, "start: exit after this long without clients, HTTP requests counted as clients; 0 never (default 10m, or never with --foreground or --http)")
	httpAddr := fs.String("http", "", "start: also serve MCP over streamable HTTP at ADDR (host:port)")
	token := fs.String("token", "", "start: bearer token HTTP clients must send (default $WIKID_TOKEN)")
	var origins stringList
	fs.Var(&origins, "allow-origin", "start: a browser origin allowed besides localhost (repeatable)")
	ifNotRunning := fs.Bool("if-not-running", false, "start: when a daemon already serves the repository, or is starting, exit with status 0 instead of an error")
	asJSON := fs.Bool("json", false, "status: print the whole status as JSON")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn or error")
	if err := parseArgs(fs, args, 1, 1); err != nil {
		return err
	}
	ep, err := endpoint(c.env, *repo)
	if err != nil {
		return err
	}
	switch fs.Arg(0) {
	case "start":
		if *token == "" {
			*token = c.getenv("WIKID_TOKEN")
		}
		set := daemonSettings{repo: *repo, idle: *idle, ifNotRunning: *ifNotRunning}
		if *httpAddr != "" {
			if err := checkBind(*httpAddr, *token); err != nil {
				return err
			}
			set.http = &daemon.HTTP{Addr: *httpAddr, HTTPOptions: mcpserver.HTTPOptions{Token: *token, AllowedOrigins: origins}}
		}
		if set.idle < 0 {
			set.idle = defaultIdle
			if *foreground || set.http != nil {
				set.idle = 0
			}
		}
		if *foreground {
			logger, err := newLogger(c.env, *logLevel)
			if err != nil {
				return err
			}
			set.mcp = mcpserver.Options{Version: version, Logger: logger}
			return runDaemon(ctx, c.env, logger, set)
		}
		if pid, held := daemon.Holder(ep); held {
			if set.ifNotRunning {
				fmt.Fprintf(c.stdout, "a daemon already serves this repository: pid %d\n", pid)
				return nil
			}
			return daemonRunning(ctx, ep, set, &daemon.RunningError{PID: pid})
		}
		spawnArgs := []string{"daemon", "start", "--foreground", "--repo", absPath(c.env, *repo),
			"--idle", set.idle.String(), "--log-level", *logLevel}
		if set.ifNotRunning {
			spawnArgs = append(spawnArgs, "--if-not-running")
		}
		if set.http != nil {
			spawnArgs = append(spawnArgs, "--http", *httpAddr)
			for _, o := range origins {
				spawnArgs = append(spawnArgs, "--allow-origin", o)
			}
		}
		env := os.Environ()
		if *token != "" {
			env = append(env, "WIKID_TOKEN="+*token) // not on the command line, where ps shows it
		}
		if err := spawn(ctx, ep, spawnArgs, env); err != nil {
			return err
		}
		st, err := daemon.GetStatus(ctx, ep)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "daemon started: pid %d, socket %s, log %s\n", st.PID, st.Socket, st.Log)
		if st.HTTP != "" {
			fmt.Fprintf(c.stdout, "serving MCP at %s\n", st.HTTP)
		}
		if st.Web != "" {
			fmt.Fprintf(c.stdout, "web pages at %s\n", st.Web)
		}
		return nil
	case "stop":
		stopCtx, cancel := context.WithTimeout(ctx, 40*time.Second)
		defer cancel()
		if err := daemon.Stop(stopCtx, ep); err != nil {
			if errors.Is(err, daemon.ErrNotRunning) {
				fmt.Fprintln(c.stdout, "no daemon runs for this repository")
				return nil
			}
			return err
		}
		fmt.Fprintln(c.stdout, "daemon stopped")
		return nil
	case "status":
		st, err := daemon.Lookup(ctx, ep)
		if errors.Is(err, daemon.ErrNotRunning) {
			fmt.Fprintf(c.stdout, "no daemon runs for this repository (socket %s)\n", ep.Socket)
			return exitError(3)
		}
		if err != nil {
			return err
		}
		if *asJSON {
			return printJSON(c.stdout, "", st)
		}
		printDaemonStatus(c.stdout, st)
		return nil
	}
	return fmt.Errorf("unknown daemon action %q: want start, stop or status", fs.Arg(0))
}

// printDaemonStatus renders a daemon's status for people.
func printDaemonStatus(w io.Writer, st *daemon.Status) {
	if st.Starting {
		fmt.Fprintf(w, "daemon pid %d is starting: it holds the repository's lock, and its socket does not answer yet (or it is stopping)\n", st.PID)
		fmt.Fprintf(w, "socket      %s\n", st.Socket)
		fmt.Fprintf(w, "log         %s\n", st.Log)
		return
	}
	fmt.Fprintf(w, "daemon pid %d, up %s, wikid %s\n", st.PID, st.Uptime, st.Version)
	fmt.Fprintf(w, "repository  %s\n", st.Repository)
	fmt.Fprintf(w, "socket      %s\n", st.Socket)
	if st.HTTP != "" {
		fmt.Fprintf(w, "http        %s\n", st.HTTP)
	}
	if st.Web != "" {
		fmt.Fprintf(w, "web         %s\n", st.Web)
	}
	fmt.Fprintf(w, "log         %s\n", st.Log)
	idle := "stays up"
	if st.Idle != "" {
		idle = "exits " + st.Idle + " after the last client or HTTP request"
	}
	fmt.Fprintf(w, "clients     %d MCP, %d commands, %d HTTP sessions (%s)\n", st.Clients.MCP, st.Clients.CLI, st.Clients.HTTP, idle)
	fmt.Fprintf(w, "index       %s\n", derivedLine(st.Index.CaughtUp, st.Index.Building, st.Index.Done, st.Index.Total, st.Index.Error))
	fmt.Fprintf(w, "history     %s\n", derivedLine(st.History.CaughtUp, false, 0, 0, ""))
	links := derivedLine(st.Graph.CaughtUp, false, 0, 0, "")
	switch st.Links {
	case wiki.ResolveObsidian:
		links += "; [[name]] by file name, as Obsidian"
	case wiki.ResolveWiki:
		links += "; [[name]] by file name, title or alias"
	}
	fmt.Fprintf(w, "links       %s\n", links)
	if s := st.Semantic; s != nil {
		read := s.Notes - s.Unread
		line := fmt.Sprintf("%s (%s), %d of %d notes embedded", s.Model, s.Provider, read-s.Unembedded, read)
		if s.Unread > 0 {
			line += fmt.Sprintf("; %d the model cannot read, found by text only", s.Unread)
		}
		if s.Error != "" {
			line += "; last error: " + s.Error
		}
		fmt.Fprintf(w, "semantic    %s\n", line)
	}
	if st.Blocked != "" {
		fmt.Fprintf(w, "blocked     %s\n", st.Blocked)
	}
	fmt.Fprintf(w, "memory      %d MiB (peak %d MiB)\n", st.RSS>>20, st.PeakRSS>>20)
}

func derivedLine(caughtUp, building bool, done, total int, err string) string {
	switch {
	case err != "":
		return "failed: " + err
	case caughtUp:
		return "up to date"
	case building && total > 0:
		return fmt.Sprintf("building, %d of %d files", done, total)
	}
	return "catching up"
}

// endpoint returns where the daemon of the repository at repo lives.
func endpoint(e env, repo string) (daemon.Endpoint, error) {
	gitDir, err := gitstore.Locate(e.path(repo))
	if errors.Is(err, gitstore.ErrNoRepository) {
		return daemon.Endpoint{}, noRepository(repo, err)
	}
	if err != nil {
		return daemon.Endpoint{}, err
	}
	dir, err := daemon.RuntimeDir(e.getenv)
	if err != nil {
		return daemon.Endpoint{}, err
	}
	return daemon.EndpointFor(dir, gitDir)
}

// absPath makes a path from the command line absolute.
func absPath(e env, p string) string {
	if abs, err := filepath.Abs(e.path(p)); err == nil {
		return abs
	}
	return p
}

// spawn starts the daemon of ep in the background with args.
func spawn(ctx context.Context, ep daemon.Endpoint, args, env []string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find the wikid executable: %w", err)
	}
	return daemon.Spawn(ctx, ep, exe, args, env, 30*time.Second)
}

// startDaemon starts the daemon of the repository at repo in the
// background, as the first client of a repository does; when another
// client's daemon wins the lock, ours exits at once and that one answers.
func startDaemon(ctx context.Context, e env, ep daemon.Endpoint, repo string) error {
	args := []string{"daemon", "start", "--foreground", "--if-not-running", "--repo", absPath(e, repo), "--idle", defaultIdle.String()}
	return spawn(ctx, ep, args, os.Environ())
}

// runDaemon takes the daemon lock, opens the wiki and runs the daemon in
// this process until it stops. When another process holds the lock, it
// returns at once, having opened nothing: an error that names the daemon
// and what to do, or, with set.ifNotRunning, nil.
func runDaemon(ctx context.Context, e env, logger *slog.Logger, set daemonSettings) error {
	ep, err := endpoint(e, set.repo)
	if err != nil {
		return err
	}
	// The lock before anything else: a process that is not to be the
	// daemon must not open the repository, which rolls back what a crashed
	// process left, nor wait for the search index that the daemon holds.
	lock, err := daemon.Acquire(ep)
	var running *daemon.RunningError
	if errors.As(err, &running) && set.ifNotRunning {
		logger.Info("a daemon already serves this repository: leaving it to serve", "pid", running.PID)
		return nil
	}
	if err != nil {
		return daemonRunning(ctx, ep, set, err)
	}
	defer lock.Release() // last: after the wiki is closed
	if e.getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if e.getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	w, cfg, err := openDaemonWiki(ctx, e, set)
	if err != nil {
		return lockedIndex(ctx, e, set.repo, err)
	}
	defer func() {
		closeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
		defer cancel()
		if err := w.Close(closeCtx); err != nil {
			logger.Error("closing the wiki", "err", err)
		}
	}()
	go releaseAfterBuild(ctx, w, logger)
	go w.PruneProposalsEvery(ctx, pruneProposalsEvery)
	go daemon.TrimWhenIdle(ctx, idleTrimEvery)
	// The daemon's one syncer runs every round: its own timer's, with a
	// sync: block, and the sync command's run in the daemon, so that a
	// round waits for one under way and the status tells of the last.
	var syncer *gitsync.Syncer
	if !w.Options().ReadOnly {
		guard := gitsync.NewGuard(w, repositoryFolder(ep.GitDir), logger.WithGroup("guard"))
		w.SetRestoreReporter(guard)
		go guard.Run(ctx, guardInterval)
		syncer = gitsync.New(w, gitsync.Options{Dir: repositoryFolder(ep.GitDir), Logger: logger.WithGroup("sync")})
		w.SetSyncReporter(syncer)
		if syncCfg := cfg.Sync; syncCfg != nil {
			go syncer.Run(ctx, syncCfg.Interval, syncCfg.PushDelay)
		}
	}
	opts := set.mcp
	opts.Logger = logger
	if opts.Profiles == nil {
		opts.Profiles = table.Profiles()
	}
	opts.ReadOnly = w.Options().ReadOnly
	opts.Sync = syncer
	pages := func(h daemon.HTTP) daemon.Pages {
		return web.New(w, web.Options{Logger: logger.WithGroup("web"), SignIn: h.Token != "",
			AllowedOrigins: h.AllowedOrigins, ReadOnly: w.Options().ReadOnly, Reviewer: cfg.Review, Getenv: e.getenv})
	}
	return daemon.Serve(ctx, daemon.Options{
		Endpoint: ep, Lock: lock, Repository: repositoryFolder(ep.GitDir), Wiki: w, MCP: opts, Idle: set.idle, HTTP: set.http, Pages: pages, Logger: logger,
		Ready: func(url string) {
			if url != "" {
				w.SetReviewURL(strings.TrimSuffix(url, mcpserver.HTTPPath))
				fmt.Fprintf(e.stderr, "wikid: serving MCP at %s (daemon of %s, pid %d)\n", url, ep.GitDir, os.Getpid())
			}
		},
		RunCommand: func(ctx context.Context, cmd daemon.Command, stdin io.Reader, stdout, stderr io.Writer) int {
			return execute(ctx, commandEnv(ep, w, syncer, cmd, stdin, stdout, stderr), cmd.Args)
		},
	})
}

// daemonRunning explains err, from daemon.Acquire: another process is the
// repository's daemon. It names it (pid, socket, HTTP address) and says
// what to do instead of running a second one.
func daemonRunning(ctx context.Context, ep daemon.Endpoint, set daemonSettings, err error) error {
	var running *daemon.RunningError
	if !errors.As(err, &running) {
		return err
	}
	stop := fmt.Sprintf("'wikid daemon stop --repo %s'", repositoryFolder(ep.GitDir))
	st, serr := daemon.GetStatus(ctx, ep)
	if serr != nil {
		return fmt.Errorf("%w: it is starting or stopping, and its socket %s does not answer yet (log %s). "+
			"Run 'wikid daemon status' in a moment, or stop it with %s to run another", running, ep.Socket, ep.Log, stop)
	}
	which := fmt.Sprintf("pid %d, socket %s", st.PID, st.Socket)
	if st.HTTP != "" {
		which += ", MCP at " + st.HTTP
	}
	switch {
	case set.http == nil:
		return fmt.Errorf("%w (%s): clients reach it through 'wikid serve'; stop it with %s to run another", daemon.ErrRunning, which, stop)
	case st.HTTP != "":
		return fmt.Errorf("%w (%s): point HTTP clients there, or stop it with %s to run another", daemon.ErrRunning, which, stop)
	}
	return fmt.Errorf("%w (%s), without HTTP: 'wikid web --no-open --http ADDR' adds it on a loopback address, "+
		"with the token of WIKID_TOKEN, and keeps its clients connected; for any other address or origins, stop it with %s "+
		"and run this again (stdio clients still connected to it start a new one at once: close them first, "+
		"or start the daemon with HTTP before them, 'wikid daemon start --http ADDR')", daemon.ErrRunning, which, stop)
}

// repositoryFolder is the folder a git folder belongs to: the checkout's
// top for a ".git", else the git folder itself (a bare repository).
func repositoryFolder(gitDir string) string {
	if filepath.Base(gitDir) == ".git" {
		return filepath.Dir(gitDir)
	}
	return gitDir
}

// idleTrimEvery is how often the daemon looks whether it turned idle after
// work, to give back the memory the work left (see daemon.TrimWhenIdle).
const idleTrimEvery = 2 * time.Second

// releaseAfterBuild returns the memory the first build of the derived
// state needed to the system once every index has caught up, so that a
// daemon's resident memory is what it keeps, not what it built with.
func releaseAfterBuild(ctx context.Context, w *wiki.Wiki, logger *slog.Logger) {
	start := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(500 * time.Millisecond):
		}
		index, history, graph, _, err := w.Derived(ctx)
		if err != nil {
			continue
		}
		if (index.CaughtUp || !index.Enabled) && (history.CaughtUp || !history.Enabled) && (graph.CaughtUp || !graph.Enabled) {
			w.ReleaseCaches()
			// Twice: what the build left in sync.Pools survives one
			// collection, in the pools' victim caches.
			debug.FreeOSMemory()
			debug.FreeOSMemory()
			logger.Info("indexes built", "took", time.Since(start).Round(time.Millisecond))
			writeHeapProfile(os.Getenv(heapProfileEnv), logger)
			return
		}
	}
}

// heapProfileEnv names a file the daemon writes a heap profile of what it
// keeps to once its indexes are built, for `go tool pprof`.
const heapProfileEnv = "WIKID_HEAP_PROFILE"

// writeHeapProfile writes the heap profile to path, when path is set.
func writeHeapProfile(path string, logger *slog.Logger) {
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err == nil {
		err = errors.Join(pprof.WriteHeapProfile(f), f.Close())
	}
	if err != nil {
		logger.Warn("heap profile not written", "file", path, "err", err)
		return
	}
	logger.Info("heap profile written", "file", path)
}

// guardInterval is how often the guard tries again to restore a change
// that a commit made outside wikid dropped, while a person's git command
// holds the checkout; it sees the commits themselves as the wiki's watch
// reports them.
const guardInterval = 500 * time.Millisecond

// openDaemonWiki opens the daemon's wiki, waiting a while for a command
// that holds the search index in its own process to finish. It returns the
// configuration it opened it with too, for its sync and review blocks.
func openDaemonWiki(ctx context.Context, e env, set daemonSettings) (*wiki.Wiki, config.Config, error) {
	deadline := time.Now().Add(20 * time.Second)
	for {
		var got config.Config
		w, err := openWikiWith(ctx, e, set.repo, true, func(cfg *config.Config) {
			cfg.ReadOnly = cfg.ReadOnly || set.readOnly
			got = *cfg
		})
		if !errors.Is(err, index.ErrLocked) || time.Now().After(deadline) {
			return w, got, err
		}
		select {
		case <-ctx.Done():
			return nil, config.Config{}, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// commandEnv is the environment of a client's command run in the daemon:
// the client's streams, environment and working folder, and the daemon's
// wiki and syncer (nil in a read-only daemon) in place of its own.
func commandEnv(ep daemon.Endpoint, w *wiki.Wiki, syncer *gitsync.Syncer, cmd daemon.Command, stdin io.Reader, stdout, stderr io.Writer) env {
	vars := map[string]string{}
	for _, kv := range cmd.Env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			vars[k] = v
		}
	}
	return env{
		stdin: stdin, stdout: stdout, stderr: stderr,
		getenv:   func(k string) string { return vars[k] },
		stdinTTY: cmd.StdinTTY, stderrTTY: cmd.StderrTTY,
		dir:    cmd.Dir,
		syncer: syncer,
		shared: func(dir string) (*wiki.Wiki, func(), error) {
			gitDir, err := gitstore.Locate(dir)
			if err != nil {
				return nil, nil, err
			}
			if gitDir != ep.GitDir {
				return nil, nil, fmt.Errorf("this daemon serves %s, not %s", ep.GitDir, gitDir)
			}
			return w, func() {}, nil
		},
	}
}
