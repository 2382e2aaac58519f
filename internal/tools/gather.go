package tools

import (
	"context"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

type gatherArgs struct {
	Question string `json:"question"`
	Budget   int    `json:"budget"`
	Folder   string `json:"folder"`
}

func gatherContextTool() *tool.Tool {
	in := tool.Object("",
		tool.Req("question", tool.Str("")),
		tool.Opt("budget", tool.Integer("", wiki.MinContextBudget, wiki.MaxContextBudget).Def(wiki.DefaultContextBudget)),
		folderProp,
	)
	return &tool.Tool{
		Name: "gather_context", Group: tool.GroupSearch, Title: "Gather context for a question", Idempotent: true,
		Description: "Use it to answer a question in one call: the best note sections in a token budget, cited by path and lines.",
		Input:       in,
		Output: tool.Object("The sections that answer the question, best first.",
			tool.Req("query", tool.Str("The search that found the notes; refine it with search_notes.")),
			tool.Req("sections", tool.ArrayOf("", tool.Object("",
				tool.Req("path", tool.Str("Note path.")),
				tool.Opt("heading", tool.Str("The headings above the lines, outermost first, joined by \" > \".")),
				tool.Req("start_line", tool.Integer("First line of text in the file.", 1, 1e9)),
				tool.Req("end_line", tool.Integer("Last line of text in the file.", 1, 1e9)),
				tool.Req("version", tool.Str("The note's version; pass it as expected_version to edit.")),
				tool.Req("text", tool.Str("The lines, as in the file, joined by \\n.")),
				tool.Opt("links", tool.StrList("Other notes of this result that these lines link to.")),
			))),
			tool.Req("more", tool.ArrayOf("Other notes that matched but did not fit.", tool.Object("",
				tool.Req("path", tool.Str("Note path.")),
				tool.Req("title", tool.Str("Title."))))),
			tool.Req("tokens", tool.Integer("Estimated tokens of this result (4 bytes each).", 0, 1e9)),
			tool.Req("budget", tool.Integer("The budget.", 0, 1e9)),
			tool.Opt("scan", tool.Object("Set while the index builds: if not complete, no sections proves nothing.",
				tool.Req("complete", tool.Boolean("")))),
		),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *gatherArgs) (any, string, error) {
			res, err := s.Wiki.GatherContext(ctx, wiki.ContextRequest{Question: a.Question, Budget: a.Budget, Folder: a.Folder})
			if err != nil {
				return nil, "", err
			}
			return res, render.Context(res), nil
		}),
	}
}
