package mcpserver

import (
	"context"
	"fmt"

	"github.com/wikid/wikid/internal/wiki"
)

type resolveArgs struct {
	Names     []string `json:"names"`
	Strategy  string   `json:"strategy"`
	Threshold float64  `json:"threshold"`
	Folder    string   `json:"folder"`
	Tag       string   `json:"tag"`
}

func resolveNotesTool() *tool {
	in := object("",
		req("names", &schema{Type: "array", MinItems: ptr(1), MaxItems: ptr(wiki.MaxResolveNames), Items: &schema{Type: "string"}}),
		opt("strategy", enum("exact: path, title or alias; fuzzy: similar names, typos; semantic: unavailable.",
			"exact", "fuzzy", "semantic").def("exact")),
		opt("threshold", &schema{Type: "number", ExclusiveMin: ptr(0.0), Max: ptr(1.0), Default: wiki.DefaultResolveThreshold}),
		folderProp,
		opt("tag", str("")),
	)
	return &tool{
		name: "resolve_notes", group: GroupSearch, title: "Resolve names to notes", idempotent: true,
		withSemantic: resolveNotesSemanticTool,
		description:  "Names (paths, titles, aliases) to note paths, or exists: false. Use it before linking or creating notes.",
		input:        in,
		output: object("One resolution per name, in the order given.",
			req("results", arrayOf("", object("",
				req("name", str("The name asked.")),
				req("exists", boolean("Whether any note matched.")),
				req("matches", arrayOf("Best first.", object("",
					req("path", str("Note path.")),
					req("title", str("Title.")),
					req("score", &schema{Type: "number", Description: "1 for an exact match, else the similarity."}),
					req("matched_by", enum("What matched.", "path", "title", "alias")),
				))),
			))),
		),
		run: bind(in, func(ctx context.Context, s *Env, a *resolveArgs) (any, string, error) {
			res, err := s.Wiki.Resolve(ctx, wiki.ResolveRequest{Names: a.Names, Strategy: a.Strategy, Threshold: a.Threshold, Folder: a.Folder, Tag: a.Tag})
			if err != nil {
				return nil, "", err
			}
			var b textBuilder
			for _, r := range res.Results {
				if !r.Exists {
					b.line("%q → no note", r.Name)
					continue
				}
				for i, m := range r.Matches {
					lead := fmt.Sprintf("%q →", r.Name)
					if i > 0 {
						lead = "   or"
					}
					b.line("%s %s (%s; %s, score %.2f)", lead, m.Path, m.Title, m.MatchedBy, m.Score)
				}
			}
			return res, b.String(), nil
		}),
	}
}

type randomArgs struct {
	Tags []string `json:"tags"`
}

func randomNoteTool() *tool {
	in := object("",
		opt("tags", strList("")),
	)
	return &tool{
		name: "random_note", group: GroupSearch, title: "A random note",
		description: "A random note (with any of tags) and the start of its body. Use it for discovery.",
		input:       in,
		output: object("The note picked.", append(append([]prop{
			req("path", str("Note path.")),
			req("title", str("Title.")),
			req("tags", strList("Tags.")),
		}, dateProps()...),
			req("excerpt", str("The body after the frontmatter, at most 500 characters.")),
			opt("truncated", boolean("Set when the excerpt was cut.")),
		)...),
		run: bind(in, func(ctx context.Context, s *Env, a *randomArgs) (any, string, error) {
			res, err := s.Wiki.Random(ctx, wiki.RandomRequest{Tags: a.Tags})
			if err != nil {
				return nil, "", err
			}
			var b textBuilder
			b.line("Random note: %s (%s) · tags: %s", res.Title, res.Path, tagList(res.Tags))
			b.line("---")
			b.WriteString(res.Excerpt)
			return res, b.String(), nil
		}),
	}
}

type statusArgs struct{}

func wikiStatusTool() *tool {
	in := object("")
	return &tool{
		name: "wiki_status", group: GroupWiki, title: "Wiki status", idempotent: true, withSemantic: wikiStatusSemanticTool,
		description: "Branch, HEAD, index, sync, read-only state and uncommitted files. Use it when results look stale or " +
			"writes fail.",
		input: in,
		output: object("The wiki's state.",
			req("repository", str("The repository's folder.")),
			req("git_dir", str("The git folder.")),
			req("branch", str("The checked-out branch; empty when HEAD is detached.")),
			opt("detached", boolean("Set when HEAD is detached: writes are refused.")),
			req("head", str("The HEAD commit; empty in a repository without commits.")),
			req("bare", boolean("Whether the repository has no checkout.")),
			req("notes", integer("Notes at HEAD.", 0, 1e9)),
			req("read_only", boolean("Whether changes are refused.")),
			opt("unwritable", str("Why this user cannot write the repository, which is then served read-only.")),
			opt("derived_dir", str("Where the indexes of an unwritable repository are kept (the user's cache folder).")),
			opt("blocked", str("Why changes fail now: a git lock file that wikid did not take, and what to do.")),
			opt("writes_to", str("The branch changes go to, when another one is checked out.")),
			req("index", object("The search index.",
				req("enabled", boolean("Whether the wiki has a search index.")),
				req("commit", str("The commit the index reflects.")),
				req("building", boolean("Whether a long (re)build runs; searches wait for it.")),
				opt("done", integer("Files indexed so far by the build.", 0, 1e12)),
				opt("total", integer("Files the build indexes in all.", 0, 1e12)),
				opt("error", str("The last indexing error.")),
				req("caught_up", boolean("Whether the index reflects HEAD.")),
				req("behind", integer("Commits between the index and HEAD; -1 when not counted.", -1, 1e12)),
			)),
			req("history", derivedSchema("The per-path history index behind the history tools.")),
			req("graph", derivedSchema("The link graph behind the link tools and backlinks.")),
			opt("links", enum("How wiki links resolve: by file name as Obsidian does, or also by title and alias.", "obsidian", "wiki")),
			req("missing_objects", integer("Objects the history refers to that this repository lacks (a partial clone, or a "+
				"damaged repository), as far as the history index has looked; the history tools mark the line counts, "+
				"renames and blame they leave unknown. Notes at HEAD are unaffected.", 0, 1e12)),
			req("sync", object("Syncing with a remote.",
				req("configured", boolean("Whether sync is set up.")),
				req("message", str("The sync state in words: the last round's outcome, or why it failed.")),
				opt("upstream", str("The remote branch, origin/main.")),
				opt("ahead", integer("Commits to push, as of the last fetch; -1 when not counted.", -1, 1e12)),
				opt("behind", integer("Commits to integrate, as of the last fetch; -1 when not counted.", -1, 1e12)),
				opt("conflicts", strList("Conflict copies the last merges made: the other side of a note that did not merge.")),
			)),
			opt("restored", strList("Notes put back after a commit made outside wikid dropped them by accident: path (dropped by commit).")),
			opt("local_changes", object("Notes of the checkout that differ from HEAD, uncommitted; absent for a bare repository. "+
				"The scan costs about what git status does; one is reused for ten times as long as it took.",
				req("modified", integer("Notes at HEAD whose checked-out file differs: edited, deleted or replaced.", 0, 1e9)),
				req("untracked", integer("Note files on disk that HEAD lacks (untracked, or only added to the index), ignored files left out.", 0, 1e9)),
				opt("modified_paths", strList("The first modified files, by path.")),
				opt("untracked_paths", strList("The first untracked files, by path.")),
				opt("partial", boolean("Set when the checkout holds too many files to scan: the counts are lower bounds.")),
			)),
		),
		run: bind(in, func(ctx context.Context, s *Env, _ *statusArgs) (any, string, error) {
			st, err := s.Wiki.Status(ctx)
			if err != nil {
				return nil, "", err
			}
			st.ReadOnly = st.ReadOnly || s.ReadOnly
			return st, statusText(st), nil
		}),
	}
}

// resolutionText says in words how links resolve.
func resolutionText(r wiki.LinkResolution) string {
	if r == wiki.ResolveObsidian {
		return "obsidian (a [[name]] finds the note of that file name, as Obsidian does)"
	}
	return "wiki (a [[name]] also finds a note by its title or alias)"
}

func statusText(st *wiki.Status) string {
	var b textBuilder
	branch := st.Branch
	if st.Detached {
		branch = "(detached HEAD)"
	}
	kind := "checkout"
	if st.Bare {
		kind = "bare repository"
	}
	b.line("Wiki at %s (%s), branch %s, HEAD %s, %s.", st.Repository, kind, branch, shortID(st.Head), plural(st.Notes, "note"))
	switch ix := st.Index; {
	case !ix.Enabled:
		b.line("Search index: none.")
	case ix.Building && ix.Total > 0:
		b.line("Search index: building, %d of %d files done (%d%%); searches wait for it, with progress notifications.", ix.Done, ix.Total, ix.Done*100/ix.Total)
	case ix.Building:
		b.line("Search index: building; searches wait for it, with progress notifications.")
	case ix.CaughtUp:
		b.line("Search index: up to date.")
	case ix.Behind > 0:
		b.line("Search index: %s behind HEAD (at %s); the next search catches up.", plural(ix.Behind, "commit"), shortID(ix.Commit))
	default:
		b.line("Search index: behind HEAD (at %s); the next search catches up.", shortID(ix.Commit))
	}
	if st.Index.Error != "" {
		b.line("Last index error: %s", st.Index.Error)
	}
	b.line("History index: %s. Link graph: %s.", derivedText(st.History), derivedText(st.Graph))
	if st.Links != "" {
		b.line("Links resolve: %s.", resolutionText(st.Links))
	}
	if line := semanticStatusText(st.Semantic); line != "" {
		b.line("%s", line)
	}
	if st.MissingObjects > 0 {
		b.line("Missing objects: %d that the history refers to are absent from this repository (a partial clone, or a "+
			"damaged repository); the history tools mark the line counts, renames and blame that need them as unknown. "+
			"Notes at HEAD are unaffected.", st.MissingObjects)
	}
	switch {
	case st.Unwritable != "":
		b.line("Read-only: %s; changes are refused, and the indexes are kept in %s.", st.Unwritable, st.DerivedDir)
	case st.ReadOnly:
		b.line("Read-only: changes are refused.")
	case st.Blocked != "":
		b.line("Blocked: changes fail with LOCKED: %s.", st.Blocked)
	case st.WritesTo != "":
		b.line("Blocked: changes go to branch %s and fail with OTHER_BRANCH while %s is checked out.", st.WritesTo, branch)
	default:
		b.line("Writable: every change is one commit.")
	}
	b.line("Sync: %s", st.Sync.Message)
	for _, c := range st.Sync.Conflicts {
		b.line("  conflict copy: %s", c)
	}
	for _, r := range st.Restored {
		b.line("Restored: %s", r)
	}
	localChangesText(&b, st.LocalChanges)
	return b.String()
}

// derivedSchema describes a wiki.DerivedStatus.
func derivedSchema(desc string) *schema {
	return object(desc,
		req("enabled", boolean("Whether the wiki keeps it.")),
		opt("commit", str("The commit it reflects.")),
		req("caught_up", boolean("Whether it reflects HEAD; it catches up on the next request that needs it.")),
	)
}

func derivedText(d wiki.DerivedStatus) string {
	switch {
	case !d.Enabled:
		return "none"
	case d.CaughtUp:
		return "up to date"
	default:
		return "building (the tools that need it wait for it)"
	}
}
