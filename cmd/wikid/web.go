package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"

	"github.com/wikid/wikid/internal/daemon"
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
loopback port (--http to choose the address). A daemon already running
without HTTP cannot add it: stop it with 'wikid daemon stop' and run wikid
web again. When the daemon's HTTP has a token, the address is a one-time
sign-in link, good for ten minutes.

Examples:
  wikid web
  wikid web --no-open --http 127.0.0.1:8765

Flags:
`
}

func (c *webCommand) Run(ctx context.Context, args []string) error {
	fs := newFlagSet("web", c.Usage(), c.stderr)
	repo := repoFlag(fs, c.env)
	addr := fs.String("http", "127.0.0.1:0", "the address to serve HTTP at when a daemon is started (loopback)")
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
	st, err := daemon.GetStatus(ctx, ep)
	if errors.Is(err, daemon.ErrNotRunning) {
		start := []string{"daemon", "start", "--foreground", "--if-not-running", "--repo", absPath(c.env, *repo), "--http", *addr}
		if err := spawn(ctx, ep, start, os.Environ()); err != nil {
			return fmt.Errorf("start the daemon: %w", err)
		}
		st, err = daemon.GetStatus(ctx, ep)
	}
	if err != nil {
		return err
	}
	if st.Web == "" {
		return errors.New("the daemon of this repository serves no HTTP: stop it with 'wikid daemon stop', then run wikid web again")
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
	name := "xdg-open"
	if runtime.GOOS == "darwin" {
		name = "open"
	}
	cmd := exec.Command(name, url)
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}
