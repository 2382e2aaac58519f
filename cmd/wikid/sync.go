package main

import (
	"context"

	"github.com/wikid/wikid/internal/gitsync"
	"github.com/wikid/wikid/internal/render"
)

type syncCommand struct{ env }

func (c *syncCommand) Usage() string {
	return `Usage: wikid sync [flags]

One sync round with the branch's upstream (its configured remote and merge
branch, else origin and the same branch name): fetch, integrate, push.

Integrating never rewrites history. When both sides changed, one merge
commit joins them: notes merge line by line and their frontmatter key by
key; what does not merge keeps this side's version, and the other side's
is kept beside it as a conflict copy ("Note (conflict 2026-11-23 origin).md"),
never as conflict markers. A remote whose history was rewritten is refused.

git itself reaches the remote, with your remotes, credential helpers, SSH
keys and known_hosts; it never prompts. Exit status 0 when in sync, 1 with
the reason otherwise.

Examples:
  git remote add origin git@example.com:me/notes.git
  git push -u origin main
  wikid sync

Flags:
`
}

func (c *syncCommand) Run(ctx context.Context, args []string) error {
	cl := newCommandLine(c.env, "sync", c.Usage())
	cl.jsonFlag()
	w, release, err := cl.parseAndOpen(ctx, args, 0, 0)
	if err != nil {
		return err
	}
	defer release()
	// In the daemon, its own syncer runs the round, so that the round
	// waits for one under way and wiki_status reports it.
	syncer := c.syncer
	if syncer == nil {
		syncer = gitsync.New(w, gitsync.Options{})
	}
	res, err := syncer.Round(ctx)
	if err != nil {
		return err
	}
	return cl.printText("sync_wiki", res, render.Sync(res))
}
