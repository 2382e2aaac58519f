package tools

import (
	"context"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

type resolveArgs struct {
	Names     []string `json:"names"`
	Strategy  string   `json:"strategy"`
	Threshold float64  `json:"threshold"`
	Folder    string   `json:"folder"`
	Tag       string   `json:"tag"`
}

func resolveNotesTool() *tool.Tool {
	in := tool.Object("",
		tool.Req("names", &tool.Schema{Type: "array", MinItems: tool.Ptr(1), MaxItems: tool.Ptr(wiki.MaxResolveNames), Items: &tool.Schema{Type: "string"}}),
		tool.Opt("strategy", tool.Enum("exact: path, title or alias; fuzzy: similar names, typos; semantic: unavailable.",
			"exact", "fuzzy", "semantic").Def("exact")),
		tool.Opt("threshold", &tool.Schema{Type: "number", ExclusiveMin: tool.Ptr(0.0), Max: tool.Ptr(1.0), Default: wiki.DefaultResolveThreshold}),
		folderProp,
		tool.Opt("tag", tool.Str("")),
	)
	return &tool.Tool{
		Name: "resolve_notes", Group: tool.GroupSearch, Title: "Resolve names to notes", Idempotent: true,
		WithSemantic: resolveNotesSemanticTool,
		Description:  "Names (paths, titles, aliases) to note paths, or exists: false. Use it before linking or creating notes.",
		Input:        in,
		Output: tool.Object("One resolution per name, in the order given.",
			tool.Req("results", tool.ArrayOf("", tool.Object("",
				tool.Req("name", tool.Str("The name asked.")),
				tool.Req("exists", tool.Boolean("Whether any note matched.")),
				tool.Req("matches", tool.ArrayOf("Best first.", tool.Object("",
					tool.Req("path", tool.Str("Note path.")),
					tool.Req("title", tool.Str("Title.")),
					tool.Req("score", &tool.Schema{Type: "number", Description: "1 for an exact match, else the similarity."}),
					tool.Req("matched_by", tool.Enum("What matched.", "path", "title", "alias")),
				))),
			))),
		),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *resolveArgs) (any, string, error) {
			res, err := s.Wiki.Resolve(ctx, wiki.ResolveRequest{Names: a.Names, Strategy: a.Strategy, Threshold: a.Threshold, Folder: a.Folder, Tag: a.Tag})
			if err != nil {
				return nil, "", err
			}
			return res, render.Resolve(res), nil
		}),
	}
}

type randomArgs struct {
	Tags []string `json:"tags"`
}

func randomNoteTool() *tool.Tool {
	in := tool.Object("",
		tool.Opt("tags", tool.StrList("")),
	)
	return &tool.Tool{
		Name: "random_note", Group: tool.GroupSearch, Title: "A random note",
		Description: "A random note (with any of tags) and the start of its body. Use it for discovery.",
		Input:       in,
		Output: tool.Object("The note picked.", append(append([]tool.Prop{
			tool.Req("path", tool.Str("Note path.")),
			tool.Req("title", tool.Str("Title.")),
			tool.Req("tags", tool.StrList("Tags.")),
		}, dateProps()...),
			tool.Req("excerpt", tool.Str("The body after the frontmatter, at most 500 characters.")),
			tool.Opt("truncated", tool.Boolean("Set when the excerpt was cut.")),
		)...),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *randomArgs) (any, string, error) {
			res, err := s.Wiki.Random(ctx, wiki.RandomRequest{Tags: a.Tags})
			if err != nil {
				return nil, "", err
			}
			return res, render.Random(res), nil
		}),
	}
}

type statusArgs struct{}

func wikiStatusTool() *tool.Tool {
	in := tool.Object("")
	return &tool.Tool{
		Name: "wiki_status", Group: tool.GroupWiki, Title: "Wiki status", Idempotent: true, WithSemantic: wikiStatusSemanticTool,
		Description: "Branch, HEAD, index, sync, read-only state and uncommitted files. Use it when results look stale or " +
			"writes fail.",
		Input: in,
		Output: tool.Object("The wiki's state.",
			tool.Req("repository", tool.Str("The repository's folder.")),
			tool.Req("git_dir", tool.Str("The git folder.")),
			tool.Req("branch", tool.Str("The checked-out branch; empty when HEAD is detached.")),
			tool.Opt("detached", tool.Boolean("Set when HEAD is detached: writes are refused.")),
			tool.Req("head", tool.Str("The HEAD commit; empty in a repository without commits.")),
			tool.Req("bare", tool.Boolean("Whether the repository has no checkout.")),
			tool.Req("notes", tool.Integer("Notes at HEAD.", 0, 1e9)),
			tool.Req("read_only", tool.Boolean("Whether changes are refused.")),
			tool.Opt("unwritable", tool.Str("Why this user cannot write the repository, which is then served read-only.")),
			tool.Opt("derived_dir", tool.Str("Where the indexes of an unwritable repository are kept (the user's cache folder).")),
			tool.Opt("blocked", tool.Str("Why changes fail now: a git lock file that wikid did not take, and what to do.")),
			tool.Opt("writes_to", tool.Str("The branch changes go to, when another one is checked out.")),
			tool.Req("index", tool.Object("The search index.",
				tool.Req("enabled", tool.Boolean("Whether the wiki has a search index.")),
				tool.Req("commit", tool.Str("The commit the index reflects.")),
				tool.Req("building", tool.Boolean("Whether a long (re)build runs; searches wait for it.")),
				tool.Opt("done", tool.Integer("Files indexed so far by the build.", 0, 1e12)),
				tool.Opt("total", tool.Integer("Files the build indexes in all.", 0, 1e12)),
				tool.Opt("error", tool.Str("The last indexing error.")),
				tool.Req("caught_up", tool.Boolean("Whether the index reflects HEAD.")),
				tool.Req("behind", tool.Integer("Commits between the index and HEAD; -1 when not counted.", -1, 1e12)),
			)),
			tool.Req("history", derivedSchema("The per-path history index behind the history tools.")),
			tool.Req("graph", derivedSchema("The link graph behind the link tools and backlinks.")),
			tool.Opt("links", tool.Enum("How wiki links resolve: by file name as Obsidian does, or also by title and alias.", "obsidian", "wiki")),
			tool.Req("missing_objects", tool.Integer("Objects the history refers to that this repository lacks (a partial clone, or a "+
				"damaged repository), as far as the history index has looked; the history tools mark the line counts, "+
				"renames and blame they leave unknown. Notes at HEAD are unaffected.", 0, 1e12)),
			tool.Req("sync", tool.Object("Syncing with a remote.",
				tool.Req("configured", tool.Boolean("Whether sync is set up.")),
				tool.Req("message", tool.Str("The sync state in words: the last round's outcome, or why it failed.")),
				tool.Opt("upstream", tool.Str("The remote branch, origin/main.")),
				tool.Opt("ahead", tool.Integer("Commits to push, as of the last fetch; -1 when not counted.", -1, 1e12)),
				tool.Opt("behind", tool.Integer("Commits to integrate, as of the last fetch; -1 when not counted.", -1, 1e12)),
				tool.Opt("conflicts", tool.StrList("Conflict copies the last merges made: the other side of a note that did not merge.")),
			)),
			tool.Opt("restored", tool.StrList("Notes put back after a commit made outside wikid dropped them by accident: path (dropped by commit).")),
			tool.Opt("local_changes", tool.Object("Notes of the checkout that differ from HEAD, uncommitted; absent for a bare repository. "+
				"The scan costs about what git status does; one is reused for ten times as long as it took.",
				tool.Req("modified", tool.Integer("Notes at HEAD whose checked-out file differs: edited, deleted or replaced.", 0, 1e9)),
				tool.Req("untracked", tool.Integer("Note files on disk that HEAD lacks (untracked, or only added to the index), ignored files left out.", 0, 1e9)),
				tool.Opt("modified_paths", tool.StrList("The first modified files, by path.")),
				tool.Opt("untracked_paths", tool.StrList("The first untracked files, by path.")),
				tool.Opt("partial", tool.Boolean("Set when the checkout holds too many files to scan: the counts are lower bounds.")),
			)),
		),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, _ *statusArgs) (any, string, error) {
			st, err := s.Wiki.Status(ctx)
			if err != nil {
				return nil, "", err
			}
			st.ReadOnly = st.ReadOnly || s.ReadOnly
			return st, render.Status(st), nil
		}),
	}
}

// derivedSchema describes a wiki.DerivedStatus.
func derivedSchema(desc string) *tool.Schema {
	return tool.Object(desc,
		tool.Req("enabled", tool.Boolean("Whether the wiki keeps it.")),
		tool.Opt("commit", tool.Str("The commit it reflects.")),
		tool.Req("caught_up", tool.Boolean("Whether it reflects HEAD; it catches up on the next request that needs it.")),
	)
}
