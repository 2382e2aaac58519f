package tools

import (
	"context"
	"slices"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// The tools of semantic search are listed only when the wiki has it:
// related_notes, Roux's search, and the variants of search_notes,
// resolve_notes and wiki_status that speak of it. A wiki without it pays
// nothing for them in tools/list.

func searchNotesSemanticTool() *tool.Tool {
	t := searchNotesTool()
	in := searchInput(true)
	t.Input = in
	t.Output = searchResultSchema(true)
	t.Run = tool.Bind(in, runSearch)
	return t
}

func relatedNotesTool() *tool.Tool {
	in := tool.Object("",
		tool.Req("path", tool.Str("")),
		folderProp,
		tool.Opt("limit", tool.Integer("", 1, 50).Def(10)),
	)
	return &tool.Tool{
		Name: "related_notes", Group: tool.GroupSearch, Title: "Notes related by meaning", Idempotent: true, NeedsSemantic: true,
		Description: "The notes nearest in meaning to a note, with their closest section. Use it to find what to link or read next.",
		Input:       in,
		Output:      relatedResultSchema(),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *relatedArgs) (any, string, error) {
			res, err := s.Wiki.Related(ctx, wiki.RelatedRequest{Path: a.Path, Folder: a.Folder, Limit: a.Limit})
			if err != nil {
				return nil, "", err
			}
			out := searchOutputOf(res, "")
			return out, render.Related(a.Path, res), nil
		}),
	}
}

// relatedResultSchema is the search result's schema without what only a
// search by words returns: a question's words, a scan's counts.
func relatedResultSchema() *tool.Schema {
	s := searchResultSchema(true)
	s.Props = slices.DeleteFunc(s.Props, func(p tool.Prop) bool { return p.Name == "question_words" || p.Name == "scan" })
	return s
}

type relatedArgs struct {
	Path   string `json:"path"`
	Folder string `json:"folder"`
	Limit  int    `json:"limit"`
}

func semanticResultProps() []tool.Prop {
	return []tool.Prop{
		tool.Opt("mode", tool.Enum("The search that answered.", wiki.SearchText, wiki.SearchSemantic, wiki.SearchHybrid)),
		tool.Opt("fallback", tool.Str("Why the ranking is not the mode asked for.")),
		tool.Opt("unembedded", tool.Integer("Notes not embedded yet, which only text search finds unless static is set.", 0, 1e9)),
		tool.Opt("embedded", tool.Integer("Notes the model has embedded.", 0, 1e9)),
		tool.Opt("static", tool.Boolean("Set when word vectors ranked the unembedded notes by meaning meanwhile.")),
	}
}

func resolveNotesSemanticTool() *tool.Tool {
	t := resolveNotesTool()
	t.Input.Props[1].Schema = tool.Enum("exact: path, title or alias; fuzzy: similar names, typos; semantic: by meaning (threshold: cosine, default 0.55).",
		"exact", "fuzzy", "semantic").Def("exact")
	matches := t.Output.Props[0].Schema.Items.Props[2].Schema.Items
	matches.Props[3].Schema = tool.Enum("What matched.", "path", "title", "alias", wiki.MatchedByMeaning)
	return t
}

func wikiStatusSemanticTool() *tool.Tool {
	t := wikiStatusTool()
	t.Output.Props = append(t.Output.Props, tool.Req("semantic", tool.Object("Search by meaning.",
		tool.Req("enabled", tool.Boolean("Whether semantic search is configured.")),
		tool.Opt("provider", tool.Str("The embeddings endpoint.")),
		tool.Opt("model", tool.Str("The embedding model.")),
		tool.Opt("dimensions", tool.Integer("The vectors' length.", 0, 1e6)),
		tool.Opt("notes", tool.Integer("Notes in the semantic index.", 0, 1e9)),
		tool.Opt("unembedded", tool.Integer("Notes still waiting to be embedded.", 0, 1e9)),
		tool.Opt("unread", tool.Integer("Notes the model cannot read: text search only.", 0, 1e9)),
		tool.Opt("chunks", tool.Integer("Chunks (sections) in all.", 0, 1e12)),
		tool.Opt("pending", tool.Integer("Chunks waiting to be embedded.", 0, 1e12)),
		tool.Opt("error", tool.Str("The endpoint's last error, until it answers again.")),
		tool.Opt("static", tool.Str("The word vectors that rank the notes still waiting, meanwhile.")),
		tool.Opt("rate", &tool.Schema{Type: "number", Description: "Chunks embedded a second over the last minute.", Digits: 3}),
		tool.Opt("eta_seconds", tool.Integer("Seconds until every pending chunk is embedded, at that rate.", 0, 1e12)),
		tool.Req("caught_up", tool.Boolean("Whether the semantic index holds HEAD's notes.")),
	)))
	return t
}
