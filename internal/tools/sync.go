package tools

import (
	"context"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

type syncArgs struct{}

func syncWikiTool() *tool.Tool {
	in := tool.Object("")
	return &tool.Tool{
		Name: "sync_wiki", Group: tool.GroupWiki, Title: "Sync with the remote", Mutating: true,
		Description: "Fetch, merge and push now; wiki_status shows sync state. Use it to get another machine's changes.",
		Input:       in,
		Output: tool.Object("What the round did.",
			tool.Req("upstream", tool.Str("The remote branch, origin/main.")),
			tool.Opt("remote", tool.Str("The remote branch's commit after the fetch; absent when it had no such branch.")),
			tool.Req("integrated", tool.Enum("up to date: nothing came in; fast-forward: the branch moved to the remote's; "+
				"merge: a merge commit joins both.", wiki.IntegratedAlready, wiki.IntegratedFastForward, wiki.IntegratedMerge)),
			tool.Opt("pushed", tool.Boolean("Set when the branch was pushed.")),
			tool.Req("commit", tool.Str("The branch's commit now, which the remote branch has too.")),
			tool.Opt("merged", tool.StrList("Files both sides changed, merged: both kept.")),
			tool.Opt("conflicts", tool.ArrayOf("Files whose sides did not merge: the file keeps this side, and the other side is "+
				"kept whole in copy.", tool.Object("",
				tool.Req("path", tool.Str("The file.")),
				tool.Opt("copy", tool.Str("The conflict copy holding the other side.")),
				tool.Req("why", tool.Str("Why it did not merge."))))),
			tool.Opt("proposals", tool.StrList("What the exchange of proposals with the remote did: one closed here because it was "+
				"closed there (closed wins), decisions merged, changes made after a close kept as a new proposal.")),
		),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, _ *syncArgs) (any, string, error) {
			if s.Sync == nil {
				return nil, "", wiki.Errorf(wiki.CodeUnavailable, "this server has no syncer").
					WithHint("run wikid sync in the repository")
			}
			res, err := s.Sync.Round(ctx)
			if err != nil {
				return nil, "", err
			}
			return res, render.Sync(res), nil
		}),
	}
}
