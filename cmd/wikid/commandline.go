package main

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

// commandLine is the command line of a command that opens the wiki: its
// flag set, with --repo and, when the command has them, --json and
// --author, and the steps such a command takes in order: parse the
// arguments, open the wiki, print the result.
type commandLine struct {
	*flag.FlagSet
	env    env
	repo   *string     // --repo
	json   *bool       // --json, or nil
	author *string     // --author, or nil: the command does not commit
	who    wiki.Caller // who the command commits as, set by open
}

// newCommandLine returns the command line of the command name, with
// --repo; usage is the command's usage text.
func newCommandLine(e env, name, usage string) *commandLine {
	fs := newFlagSet(name, usage, e.stderr)
	return &commandLine{FlagSet: fs, env: e, repo: repoFlag(fs, e)}
}

// jsonFlag registers --json, which print obeys.
func (cl *commandLine) jsonFlag() {
	cl.json = cl.Bool("json", false, "print the result as JSON")
}

// authorFlag registers --author, and makes open settle who the command
// commits as.
func (cl *commandLine) authorFlag() {
	cl.author = authorFlag(cl.FlagSet)
}

// parse parses args as parseArgs does: at least min and at most max (-1:
// any number of) positional arguments.
func (cl *commandLine) parse(args []string, min, max int) error {
	return parseArgs(cl.FlagSet, args, min, max)
}

// open opens the wiki that --repo names and returns it with the function
// that releases it (see openWiki). With --author registered it also sets
// who (see openWikiAs).
func (cl *commandLine) open(ctx context.Context) (*wiki.Wiki, func(), error) {
	if cl.author == nil {
		return openWiki(ctx, cl.env, *cl.repo, nil)
	}
	w, release, who, err := openWikiAs(ctx, cl.env, *cl.repo, *cl.author)
	cl.who = who
	return w, release, err
}

// parseAndOpen is parse then open, for a command that checks nothing
// between the two.
func (cl *commandLine) parseAndOpen(ctx context.Context, args []string, min, max int) (*wiki.Wiki, func(), error) {
	if err := cl.parse(args, min, max); err != nil {
		return nil, nil, err
	}
	return cl.open(ctx)
}

// print prints res with --json as the MCP tool of that name returns it
// (see printJSON), and otherwise calls text, which prints it for people.
func (cl *commandLine) print(tool string, res any, text func() error) error {
	if cl.json != nil && *cl.json {
		return printJSON(cl.env.stdout, tool, res)
	}
	return text()
}

// printText prints a result: as the MCP tool of that name returns it with
// --json, else text, a rendering (see render) said in the command line's
// words.
func (cl *commandLine) printText(tool string, res any, text string) error {
	return cl.print(tool, res, func() error {
		_, err := fmt.Fprintln(cl.env.stdout, cliWords.Say(text))
		return err
	})
}

// pathArg returns the i-th argument as a note path (notePath).
func (cl *commandLine) pathArg(i int) string { return notePath(runtime.GOOS, cl.Arg(i)) }

// notePath returns a note path typed on the command line of the system
// goos as wikid reads note paths: on Windows, whose paths separate folders
// with backslashes and whose file names cannot hold one, each backslash is
// a slash. Elsewhere a backslash is part of a name, which wikid refuses
// with its reason.
func notePath(goos, p string) string {
	if goos == "windows" {
		return strings.ReplaceAll(p, `\`, "/")
	}
	return p
}
