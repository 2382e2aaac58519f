package mcpserver

import (
	"context"

	wsync "github.com/wikid/wikid/internal/gitsync"
	"github.com/wikid/wikid/internal/wiki"
)

type syncArgs struct{}

func syncWikiTool() *tool {
	in := object("")
	return &tool{
		name: "sync_wiki", group: GroupWiki, title: "Sync with the remote", mutating: true,
		description: "Fetch, merge and push now; wiki_status shows sync state. Use it to get another machine's changes.",
		input:       in,
		output: object("What the round did.",
			req("upstream", str("The remote branch, origin/main.")),
			opt("remote", str("The remote branch's commit after the fetch; absent when it had no such branch.")),
			req("integrated", enum("up to date: nothing came in; fast-forward: the branch moved to the remote's; "+
				"merge: a merge commit joins both.", wiki.IntegratedAlready, wiki.IntegratedFastForward, wiki.IntegratedMerge)),
			opt("pushed", boolean("Set when the branch was pushed.")),
			req("commit", str("The branch's commit now, which the remote branch has too.")),
			opt("merged", strList("Files both sides changed, merged: both kept.")),
			opt("conflicts", arrayOf("Files whose sides did not merge: the file keeps this side, and the other side is "+
				"kept whole in copy.", object("",
				req("path", str("The file.")),
				opt("copy", str("The conflict copy holding the other side.")),
				req("why", str("Why it did not merge."))))),
		),
		run: bind(in, func(ctx context.Context, s *Server, _ *syncArgs) (any, string, error) {
			res, err := wsync.Of(s.w).Round(ctx)
			if err != nil {
				return nil, "", err
			}
			return res, syncText(res), nil
		}),
	}
}

func syncText(res *wsync.Result) string {
	var b textBuilder
	what := map[string]string{
		wiki.IntegratedAlready:     "nothing to integrate",
		wiki.IntegratedFastForward: "fast-forwarded to the remote",
		wiki.IntegratedMerge:       "merged with the remote",
	}[res.Integrated]
	if res.Pushed {
		what += ", pushed"
	}
	b.line("%s: %s; now at %s.", res.Upstream, what, res.Commit)
	for _, m := range res.Merged {
		b.line("Merged: %s", m)
	}
	for _, c := range res.Conflicts {
		if c.Copy != "" {
			b.line("Conflict: %s (%s); the other side is in %s", c.Path, c.Why, c.Copy)
		} else {
			b.line("Conflict: %s (%s)", c.Path, c.Why)
		}
	}
	return b.String()
}
