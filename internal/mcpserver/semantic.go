package mcpserver

import (
	"context"
	"fmt"

	"github.com/wikid/wikid/internal/wiki"
)

// The tools of semantic search are listed only when the wiki has it:
// related_notes, Roux's search, and the variants of search_notes,
// resolve_notes and wiki_status that speak of it. A wiki without it pays
// nothing for them in tools/list.

func searchNotesSemanticTool() *tool {
	t := searchNotesTool()
	in := searchInput(true)
	t.input = in
	t.output = searchResultSchema(true)
	t.run = bind(in, runSearch)
	return t
}

func relatedNotesTool() *tool {
	in := object("",
		req("path", str("")),
		folderProp,
		opt("limit", integer("", 1, 50).def(10)),
	)
	return &tool{
		name: "related_notes", group: GroupSearch, title: "Notes related by meaning", idempotent: true, needsSemantic: true,
		description: "The notes nearest in meaning to a note, with their closest section. Use it to find what to link or read next.",
		input:       in,
		output:      searchResultSchema(true),
		run: bind(in, func(ctx context.Context, s *Env, a *relatedArgs) (any, string, error) {
			res, err := s.Wiki.Related(ctx, wiki.RelatedRequest{Path: a.Path, Folder: a.Folder, Limit: a.Limit})
			if err != nil {
				return nil, "", err
			}
			out := searchOutputOf(res, "")
			return out, relatedText(a.Path, res), nil
		}),
	}
}

type relatedArgs struct {
	Path   string `json:"path"`
	Folder string `json:"folder"`
	Limit  int    `json:"limit"`
}

func relatedText(notePath string, res *wiki.SearchResult) string {
	var b textBuilder
	if len(res.Results) == 0 {
		b.line("No notes related to %s.", notePath)
	} else {
		b.line("Notes related to %s, nearest first:", notePath)
		for _, h := range res.Results {
			b.line("- %s (%s) · similarity %.2f", h.Title, h.Path, h.Score)
			for _, sn := range h.Snippets {
				b.line("  %d: %s", sn.Line, oneLine(sn.Text))
			}
		}
	}
	semanticNotes(&b, res)
	return b.String()
}

// semanticNotes says which mode answered a search by meaning, why it fell
// back, and what is not embedded yet.
func semanticNotes(b *textBuilder, res *wiki.SearchResult) {
	if res.Fallback != "" {
		b.line("Note: %s", res.Fallback)
	}
	if res.Unembedded > 0 {
		b.line("Note: %s not embedded yet, so not ranked by meaning; wiki_status shows the progress.", plural(res.Unembedded, "note"))
	}
}

func semanticResultProps() []prop {
	return []prop{
		opt("mode", enum("The search that answered.", wiki.SearchText, wiki.SearchSemantic, wiki.SearchHybrid)),
		opt("fallback", str("Why the ranking is not the mode asked for.")),
		opt("unembedded", integer("Notes not embedded yet, which only text search finds.", 0, 1e9)),
	}
}

func resolveNotesSemanticTool() *tool {
	t := resolveNotesTool()
	t.input.Props[1].Schema = enum("exact: path, title or alias; fuzzy: similar names, typos; semantic: by meaning (threshold: cosine, default 0.55).",
		"exact", "fuzzy", "semantic").def("exact")
	matches := t.output.Props[0].Schema.Items.Props[2].Schema.Items
	matches.Props[3].Schema = enum("What matched.", "path", "title", "alias", wiki.MatchedByMeaning)
	return t
}

func wikiStatusSemanticTool() *tool {
	t := wikiStatusTool()
	t.output.Props = append(t.output.Props, req("semantic", object("Search by meaning.",
		req("enabled", boolean("Whether semantic search is configured.")),
		opt("provider", str("The embeddings endpoint.")),
		opt("model", str("The embedding model.")),
		opt("dimensions", integer("The vectors' length.", 0, 1e6)),
		opt("notes", integer("Notes in the semantic index.", 0, 1e9)),
		opt("unembedded", integer("Notes still waiting to be embedded.", 0, 1e9)),
		opt("unread", integer("Notes the model cannot read: text search only.", 0, 1e9)),
		opt("chunks", integer("Chunks (sections) in all.", 0, 1e12)),
		opt("pending", integer("Chunks waiting to be embedded.", 0, 1e12)),
		opt("error", str("The endpoint's last error, until it answers again.")),
		req("caught_up", boolean("Whether the semantic index holds HEAD's notes.")),
	)))
	return t
}

// semanticStatusText is the status's line on semantic search.
func semanticStatusText(st wiki.SemanticStatus) string {
	if !st.Enabled {
		return ""
	}
	line := fmt.Sprintf("Semantic search: %s (%s), %s", st.Model, st.Provider, plural(st.Notes, "note"))
	if st.Unembedded > 0 {
		line += fmt.Sprintf(", %d not embedded yet (%s waiting)", st.Unembedded, plural(st.Pending, "chunk"))
	} else {
		line += ", all embedded"
	}
	if st.Unread > 0 {
		line += fmt.Sprintf("; %d the model cannot read (another language, or code), found by text only", st.Unread)
	}
	if st.Error != "" {
		line += "; last error: " + st.Error
	}
	return line
}
