package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

type gatherArgs struct {
	Question string `json:"question"`
	Budget   int    `json:"budget"`
	Folder   string `json:"folder"`
}

func gatherContextTool() *tool {
	in := object("",
		req("question", str("")),
		opt("budget", integer("", wiki.MinContextBudget, wiki.MaxContextBudget).def(wiki.DefaultContextBudget)),
		folderProp,
	)
	return &tool{
		name: "gather_context", group: GroupSearch, title: "Gather context for a question", idempotent: true,
		description: "Use it to answer a question in one call: the best note sections in a token budget, cited by path and lines.",
		input:       in,
		output: object("The sections that answer the question, best first.",
			req("query", str("The search that found the notes; refine it with search_notes.")),
			req("sections", arrayOf("", object("",
				req("path", str("Note path.")),
				opt("heading", str("The headings above the lines, outermost first, joined by \" > \".")),
				req("start_line", integer("First line of text in the file.", 1, 1e9)),
				req("end_line", integer("Last line of text in the file.", 1, 1e9)),
				req("version", str("The note's version; pass it as expected_version to edit.")),
				req("text", str("The lines, as in the file, joined by \\n.")),
				opt("links", strList("Other notes of this result that these lines link to.")),
			))),
			req("more", arrayOf("Other notes that matched but did not fit.", object("",
				req("path", str("Note path.")),
				req("title", str("Title."))))),
			req("tokens", integer("Estimated tokens of this result (4 bytes each).", 0, 1e9)),
			req("budget", integer("The budget.", 0, 1e9)),
		),
		run: bind(in, func(ctx context.Context, s *Env, a *gatherArgs) (any, string, error) {
			res, err := s.Wiki.GatherContext(ctx, wiki.ContextRequest{Question: a.Question, Budget: a.Budget, Folder: a.Folder})
			if err != nil {
				return nil, "", err
			}
			return res, gatherText(res), nil
		}),
	}
}

func gatherText(res *wiki.ContextResult) string {
	var b textBuilder
	if len(res.Sections) == 0 {
		b.line("No sections found (query: %s).", res.Query)
	} else {
		b.line("%s, about %d of %d tokens (query: %s):", plural(len(res.Sections), "section"), res.Tokens, res.Budget, res.Query)
	}
	for _, s := range res.Sections {
		b.line("")
		where := fmt.Sprintf("%s, lines %d-%d", s.Path, s.StartLine, s.EndLine)
		if s.Heading != "" {
			where += " · " + s.Heading
		}
		b.line("%s · version %s", where, s.Version)
		for _, l := range strings.Split(s.Text, "\n") {
			b.line("  %s", l)
		}
		if len(s.Links) > 0 {
			b.line("  links to: %s", strings.Join(s.Links, ", "))
		}
	}
	if len(res.More) > 0 {
		b.line("")
		paths := make([]string, len(res.More))
		for i, m := range res.More {
			paths[i] = m.Path
		}
		b.line("Also matched: %s.", strings.Join(paths, ", "))
	}
	return b.String()
}
