package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"

	"github.com/wikid/wikid/internal/daemon"
	"github.com/wikid/wikid/internal/mcpserver"
)

type webCommand struct{ env }

func (c *webCommand) Usage() string {
	return `Usage: wikid web [flags]

Opens the review pages of the wiki in a browser and prints their address:
what each assistant changed (the changes timeline, each commit's diff),
marks for what you have reviewed, undo with a preview, and the notes as
they read now or read before.

The repository's daemon serves the pages on its HTTP address, at / beside
/mcp. When no daemon runs, wikid web starts one that serves HTTP on a free
loopback port (--http to choose the address). When a daemon runs without
HTTP (one that 'wikid serve' started for an assistant), wikid web asks it
to add the listener: it keeps serving its MCP clients, and from then on
serves the pages and /mcp too. When the daemon's HTTP has a token
(WIKID_TOKEN), the address is a one-time sign-in link, good for ten
minutes.

A daemon that wikid web starts exits 10 minutes (--idle) after the last
page request, when no assistant and no command is connected either: a
browser tab in use keeps it up, one left open does not. A daemon that was
running already keeps its own rule ('wikid daemon status' says it), with
page requests counted as clients.

Examples:
  wikid web
  wikid web --no-open --http 127.0.0.1:8765

Flags:
`
}

func (c *webCommand) Run(ctx context.Context, args []string) error {
	fs := newFlagSet("web", c.Usage(), c.stderr)
	repo := repoFlag(fs, c.env)
	addr := fs.String("http", "127.0.0.1:0", "the address to serve HTTP at when the daemon serves none yet (loopback)")
	idle := fs.Duration("idle", defaultIdle, "when wikid web starts the daemon: it exits this long after the last page request, client or command; 0 never")
	noOpen := fs.Bool("no-open", false, "print the address without opening a browser")
	if err := parseArgs(fs, args, 0, 0); err != nil {
		return err
	}
	if err := checkBind(*addr, ""); err != nil {
		return err
	}
	ep, err := endpoint(c.env, *repo)
	if err != nil {
		return err
	}
	if *idle < 0 {
		return errors.New("--idle must not be negative")
	}
	token := c.getenv("WIKID_TOKEN")
	st, err := daemon.GetStatus(ctx, ep)
	if errors.Is(err, daemon.ErrNotRunning) {
		start := []string{"daemon", "start", "--foreground", "--if-not-running", "--repo", absPath(c.env, *repo),
			"--http", *addr, "--idle", idle.String()}
		env := os.Environ()
		if token != "" {
			env = append(env, "WIKID_TOKEN="+token)
		}
		if err := spawn(ctx, ep, start, env); err != nil {
			return fmt.Errorf("start the daemon: %w", err)
		}
		st, err = daemon.GetStatus(ctx, ep)
	}
	if err != nil {
		return err
	}
	if st.Web == "" {
		// A daemon without HTTP, started for an assistant: it adds the
		// listener, and its clients stay connected.
		st, err = daemon.AddHTTP(ctx, ep, daemon.HTTP{Addr: *addr, HTTPOptions: mcpserver.HTTPOptions{Token: token}})
		if err != nil {
			return fmt.Errorf("ask the running daemon to serve the pages: %w", err)
		}
		if st.Web == "" {
			return fmt.Errorf("the daemon of this repository (pid %d) serves HTTP at %s without the pages: "+
				"stop it with 'wikid daemon stop', then run wikid web again", st.PID, st.HTTP)
		}
	}
	fmt.Fprintln(c.stdout, st.Web)
	if !*noOpen {
		if err := openBrowser(st.Web); err != nil {
			fmt.Fprintf(c.stderr, "wikid: could not open a browser (%v); open the address above\n", err)
		}
	}
	return nil
}

// openBrowser opens url in the person's browser.
func openBrowser(url string) error {
	cmd := exec.Command("xdg-open", url)
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		// The shell's handler for URLs, without a console window (cmd's
		// start would read & in the URL as its own).
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}
