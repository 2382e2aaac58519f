package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/wikid/wikid/internal/daemon"
)

// daemonCommands are the commands that run in the repository's daemon
// while one runs: those that open the wiki. Run in their own process, they
// could not open the search index the daemon holds.
var daemonCommands = map[string]bool{
	"read": true, "write": true, "edit": true, "rm": true, "mv": true, "links": true, "check": true,
	"search": true, "context": true, "grep": true, "reindex": true, "history": true, "show": true, "diff": true,
	"restore": true, "log": true, "blame": true, "revert": true, "sync": true, "proposals": true,
}

// forward runs the command line args in the repository's daemon when one
// runs, and reports its exit status; ok is false when the command is to
// run in this process: it is not a daemon command, no daemon runs, or
// WIKID_NO_DAEMON is set. A daemon that fails mid-command is an error
// exit, not a second run here: the command may have changed the wiki.
func forward(ctx context.Context, e env, args []string) (code int, ok bool) {
	if e.shared != nil || !daemonCommands[args[0]] || noDaemonEnv(e) || helpAsked(args[1:]) {
		return 0, false
	}
	ep, err := endpoint(e, repoArg(e, args[1:]))
	if err != nil {
		return 0, false // the command itself reports a missing repository
	}
	dir, err := os.Getwd()
	if err != nil {
		return 0, false
	}
	cmd := daemon.Command{Args: args, Env: os.Environ(), Dir: dir, StdinTTY: e.stdinTTY, StderrTTY: e.stderrTTY}
	code, err = daemon.Run(ctx, ep, cmd, e.stdin, e.stdout, e.stderr)
	switch {
	case errors.Is(err, daemon.ErrNotRunning):
		return 0, false
	case err != nil:
		fmt.Fprintf(e.stderr, "wikid: %v\n", err)
		return 1, true
	}
	return code, true
}

// repoArg finds the --repo flag among a command's arguments the way the
// command will parse it, else WIKID_REPO, else ".".
func repoArg(e env, args []string) string {
	repo := e.getenv("WIKID_REPO")
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "repo" {
			continue
		}
		if hasVal {
			repo = val
		} else if i+1 < len(args) {
			repo = args[i+1]
			i++
		}
	}
	if repo == "" {
		repo = "."
	}
	return repo
}

// helpAsked reports whether the arguments ask for help, which needs no
// daemon.
func helpAsked(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-h" || a == "-help" || a == "--help" {
			return true
		}
	}
	return false
}
