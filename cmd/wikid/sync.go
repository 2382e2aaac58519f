package main

import (
	"context"
	"fmt"

	"github.com/wikid/wikid/internal/gitsync"
	"github.com/wikid/wikid/internal/wiki"
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
	return cl.print("sync_wiki", res, func() error {
		c.print(res)
		return nil
	})
}

// print says what the round did, in a line or a few.
func (c *syncCommand) print(res *gitsync.Result) {
	switch {
	case res.Remote == "" && res.Pushed:
		fmt.Fprintf(c.stdout, "pushed %s to %s, which had no such branch\n", short(res.Commit), res.Upstream)
	case res.Integrated == wiki.IntegratedAlready && !res.Pushed:
		fmt.Fprintf(c.stdout, "in sync with %s at %s\n", res.Upstream, short(res.Commit))
	default:
		what := map[string]string{
			wiki.IntegratedAlready:     "nothing to integrate",
			wiki.IntegratedFastForward: "fast-forwarded",
			wiki.IntegratedMerge:       "merged",
		}[res.Integrated]
		pushed := ""
		if res.Pushed {
			pushed = ", pushed"
		}
		fmt.Fprintf(c.stdout, "%s: %s%s; now at %s\n", res.Upstream, what, pushed, short(res.Commit))
	}
	for _, m := range res.Merged {
		fmt.Fprintf(c.stdout, "  merged %s\n", m)
	}
	for _, cf := range res.Conflicts {
		if cf.Copy != "" {
			fmt.Fprintf(c.stdout, "  conflict %s: %s; the other side is in %s\n", cf.Path, cf.Why, cf.Copy)
		} else {
			fmt.Fprintf(c.stdout, "  conflict %s: %s\n", cf.Path, cf.Why)
		}
	}
}

// short abbreviates a commit id as git does.
func short(id string) string { return id[:min(len(id), 12)] }
