package main

import (
	"context"
	"fmt"
	"time"
)

type reindexCommand struct{ env }

func (c *reindexCommand) Usage() string {
	return `Usage: wikid reindex [flags]

Brings the search index under .git/wikid up to HEAD; with --rebuild it
starts from empty. The index is derived state: deleting it loses nothing.

Flags:
`
}

func (c *reindexCommand) Run(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "reindex", c.Usage())
	rebuild := cl.Bool("rebuild", false, "drop the index and build it from scratch")
	w, release, err := cl.parseAndOpen(ctx, args, 0, 0)
	if err != nil {
		return err
	}
	defer release()
	start := time.Now()
	if err := w.Reindex(ctx, *rebuild, progressPrinter(c.env, "indexing")); err != nil {
		return err
	}
	st := w.IndexState()
	fmt.Fprintf(c.stdout, "index at %.12s (%s)\n", st.Commit, time.Since(start).Round(time.Millisecond))
	return nil
}

// progressPrinter reports progress on stderr: a bar redrawn in place on a
// terminal, a line every 10% otherwise.
func progressPrinter(e env, what string) func(done, total int) {
	tty := e.stderrTTY
	lastTenth := -1
	return func(done, total int) {
		if total == 0 {
			return
		}
		if tty {
			const width = 30
			n := done * width / total
			fmt.Fprintf(e.stderr, "\r%s [%-*s] %d/%d", what, width, bar(n), done, total)
			if done == total {
				fmt.Fprintln(e.stderr)
			}
			return
		}
		if tenth := done * 10 / total; tenth != lastTenth {
			lastTenth = tenth
			fmt.Fprintf(e.stderr, "%s: %d/%d files\n", what, done, total)
		}
	}
}

func bar(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '='
	}
	return string(b)
}
