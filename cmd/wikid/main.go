// Command wikid is a git-native wiki daemon: it serves a git repository of
// markdown notes to AI assistants over the Model Context Protocol, and to
// people through this command line.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/wikid/wikid/internal/gitsync"
	"github.com/wikid/wikid/internal/wiki"
)

// command is one subcommand: it parses its own flags from args.
type command interface {
	Run(ctx context.Context, args []string) error
	Usage() string
}

// env is what every subcommand reads and writes besides its arguments.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	// stdinTTY and stderrTTY say whether those are terminals.
	stdinTTY, stderrTTY bool
	// dir is the working folder relative paths are resolved against; ""
	// is the process's own.
	dir string
	// shared, when the command runs in a daemon, returns the daemon's
	// wiki for the repository at an absolute path, and its release.
	shared func(dir string) (*wiki.Wiki, func(), error)
	// syncer, when the command runs in a daemon, is the daemon's syncer of
	// that wiki; nil elsewhere, and in a read-only daemon.
	syncer *gitsync.Syncer
}

// path resolves a path given on the command line.
func (e env) path(p string) string {
	if e.dir == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(e.dir, p)
}

// isTerminal reports whether f is a terminal.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	e := env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv,
		stdinTTY: isTerminal(os.Stdin), stderrTTY: isTerminal(os.Stderr)}
	code := execute(ctx, e, os.Args[1:])
	stop()
	os.Exit(code)
}

// execute runs a command line and returns its exit status, having printed
// its error, if any, on e.stderr.
func execute(ctx context.Context, e env, args []string) int {
	err := run(ctx, e, args)
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
	case errors.As(err, new(exitError)):
		return int(err.(exitError))
	default:
		fmt.Fprintln(e.stderr, "wikid:", cliWords.Say(err.Error()))
		var ne *wiki.Error
		if errors.As(err, &ne) && ne.Hint != "" {
			fmt.Fprintln(e.stderr, "hint:", cliWords.Say(ne.Hint))
		}
		return 1
	}
	return 0
}

// exitError asks main for an exit status without printing anything more.
type exitError int

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// commands returns the subcommands by name.
func commands(e env) map[string]command {
	return map[string]command{
		"version":   &versionCommand{env: e},
		"init":      &initCommand{env: e},
		"read":      &readCommand{env: e},
		"write":     &writeCommand{env: e},
		"edit":      &editCommand{env: e},
		"rm":        &rmCommand{env: e},
		"mv":        &mvCommand{env: e},
		"links":     &linksCommand{env: e},
		"check":     &checkCommand{env: e},
		"search":    &searchCommand{env: e},
		"context":   &contextCommand{env: e},
		"grep":      &grepCommand{env: e},
		"reindex":   &reindexCommand{env: e},
		"serve":     &serveCommand{env: e},
		"daemon":    &daemonCommand{env: e},
		"history":   &historyCommand{env: e},
		"show":      &showCommand{env: e},
		"diff":      &diffCommand{env: e},
		"restore":   &restoreCommand{env: e},
		"log":       &logCommand{env: e},
		"blame":     &blameCommand{env: e},
		"revert":    &revertCommand{env: e},
		"proposals": &proposalsCommand{env: e},
		"sync":      &syncCommand{env: e},
		"web":       &webCommand{env: e},
	}
}

func run(ctx context.Context, e env, args []string) error {
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version") {
		args = append([]string{"version"}, args[1:]...)
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) > 1 {
			return help(ctx, e, args[1])
		}
		fmt.Fprint(e.stdout, usage)
		if len(args) == 0 {
			return exitError(2)
		}
		return nil
	}
	c, ok := commands(e)[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "wikid: unknown command %q\n\n%s", args[0], usage)
		return exitError(2)
	}
	if code, ok := forward(ctx, e, args); ok {
		if code != 0 {
			return exitError(code)
		}
		return nil
	}
	return c.Run(ctx, args[1:])
}

// help prints a command's usage and flags on standard output: what
// "wikid CMD --help" prints on standard error.
func help(ctx context.Context, e env, name string) error {
	out := e
	out.stderr = e.stdout
	c, ok := commands(out)[name]
	if !ok {
		fmt.Fprintf(e.stderr, "wikid: unknown command %q\n\n%s", name, usage)
		return exitError(2)
	}
	// Every command parses its flags before it does anything else, and
	// -h stops it there.
	if err := c.Run(ctx, []string{"-h"}); !errors.Is(err, flag.ErrHelp) {
		return fmt.Errorf("help %s: %v", name, err)
	}
	return nil
}

const usage = `wikid serves a git repository of markdown notes to AI assistants over MCP.
Every change is one git commit; git is the only source of truth.

Usage:
  wikid <command> [arguments] [flags]

Commands:
  init       create a new wiki repository
  read       print a note or a section of it
  write      create or replace a note from standard input
  edit       change part of a note (append, replace, sections, ...)
  rm         delete a note (recoverable from history)
  mv         move a note or a folder, rewriting the links to it
  links      the notes that link to a note, and its own links
  check      broken links, malformed frontmatter and orphans (exit 1 if any)
  search     ranked full-text search with the query language
  context    the sections of notes that answer a question, within a budget
  grep       print the lines of notes that match a pattern
  reindex    bring the search index up to date, or rebuild it
  history    the commits that changed a note
  show       print a note as it was at a version (PATH@VERSION)
  diff       a unified diff of a note, or of the wiki, between versions
  restore    bring back a note's old version (or a deleted note) as a commit
  log        the wiki's commits with author, client, tool and notes
  blame      who last changed each line of a note
  revert     undo one commit's changes to notes, as a new commit
  proposals  list, show, accept or reject what an assistant proposed
  sync       fetch, integrate and push the branch's upstream, merging notes
  serve      serve the wiki to MCP clients over stdio or HTTP
  daemon     start, stop or show the repository's daemon, which clients share
  web        open the review pages: what assistants changed, review, undo
  version    print the version

Flags may come before or after the arguments; "--" ends them, so that an
argument may begin with "-". 'wikid --version' prints the version.
Run 'wikid help <command>' or 'wikid <command> --help' for a command's flags.
`
