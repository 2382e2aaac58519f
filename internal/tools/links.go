package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// brokenReason describes why a link is broken.
const brokenReason = "Why it is broken: no such note, no such file (an attachment), no such heading, or no block ^id " +
	"for a block reference."

// Schemas of the link graph's results.
var (
	linkSiteProps = []tool.Prop{
		tool.Req("line", tool.Integer("The line the link is on.", 1, 1e9)),
		tool.Req("kind", tool.Enum("wiki: [[target]], embed: ![[target]], markdown: [text](path.md).", "wiki", "embed", "markdown")),
		tool.Req("target", tool.Str("The target as written, without heading or label.")),
		tool.Opt("heading", tool.Str("The heading (or ^block) after '#', as written.")),
		tool.Req("context", tool.Str("The line the link sits on, trimmed, at most about 200 characters around the link.")),
	}
	backlinkSchema = tool.Object("A note that links to this one.",
		tool.Req("path", tool.Str("The linking note.")),
		tool.Req("title", tool.Str("Its title.")),
		tool.Req("links", tool.ArrayOf("Its links to this note, in order.", tool.Object("", linkSiteProps...))),
	)
)

type linksArgs struct {
	Path           string `json:"path"`
	Direction      string `json:"direction"`
	Depth          int    `json:"depth"`
	Limit          int    `json:"limit"`
	IncludeContent bool   `json:"include_content"`
}

func getLinksTool() *tool.Tool {
	in := tool.Object("",
		pathProp,
		tool.Opt("direction", tool.Enum("", "in", "out", "both").Def("both")),
		tool.Opt("depth", tool.Integer("", 1, wiki.MaxLinksDepth).Def(1)),
		tool.Opt("limit", tool.Integer("", 1, wiki.MaxLinksLimit).Def(wiki.DefaultLinksLimit)),
		tool.Opt("include_content", tool.Boolean("")),
	)
	neighbor := tool.Object("",
		tool.Req("path", tool.Str("Note path.")),
		tool.Req("title", tool.Str("Title.")),
		tool.Req("via", tool.Str("The note one link closer through which it was reached.")),
		tool.Req("direction", tool.Enum("out: via links to it; in: it links to via; both.", "in", "out", "both")),
		tool.Opt("content", tool.Str("The start of its text, with include_content.")),
		tool.Opt("truncated", tool.Boolean("Set when content was cut.")),
	)
	return &tool.Tool{
		Name: "get_links", Group: tool.GroupLinks, Title: "Links of a note", Idempotent: true,
		Description: "Backlinks and outgoing links of a note (even a missing one); depth goes further. Use find_path for chains.",
		Input:       in,
		Output: tool.Object("The links around the note.",
			tool.Req("path", tool.Str("Note path.")),
			tool.Opt("title", tool.Str("Its title, when it exists.")),
			tool.Req("exists", tool.Boolean("False for a path without a note.")),
			tool.Req("incoming", tool.ArrayOf("Notes that link to it, by path.", backlinkSchema)),
			tool.Req("incoming_total", tool.Integer("How many notes link to it.", 0, 1e9)),
			tool.Req("outgoing", tool.ArrayOf("Its links in order.", tool.Object("", append(linkSiteProps,
				tool.Opt("path", tool.Str("The note (or embedded file) the link resolves to; absent when broken.")),
				tool.Opt("title", tool.Str("The title of that note.")),
				tool.Opt("broken", tool.Str(brokenReason+" Absent when the link resolves.")),
				tool.Opt("ambiguous", tool.StrList("For a bare name that names several notes or files: the others (path is the one chosen).")),
			)...))),
			tool.Req("outgoing_total", tool.Integer("How many links it has.", 0, 1e9)),
			tool.Req("neighbors", tool.ArrayOf("The notes at each distance from 1 to depth.", tool.Object("",
				tool.Req("depth", tool.Integer("Links away.", 1, wiki.MaxLinksDepth)),
				tool.Req("total", tool.Integer("How many notes are this far.", 0, 1e9)),
				tool.Req("notes", tool.ArrayOf("At most limit of them, by path.", neighbor)),
			))),
		),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *linksArgs) (any, string, error) {
			res, err := s.Wiki.Links(ctx, wiki.LinksRequest{Path: a.Path, Direction: wiki.Direction(a.Direction), Depth: a.Depth,
				Limit: a.Limit, IncludeContent: a.IncludeContent})
			if err != nil {
				return nil, "", err
			}
			for i := range res.Neighbors {
				for j := range res.Neighbors[i].Notes {
					if n := &res.Neighbors[i].Notes[j]; n.Truncated {
						n.Content += render.TruncatedMark
					}
				}
			}
			return res, render.Links(res), nil
		}),
	}
}

type pathArgs struct {
	Source    string `json:"source"`
	Target    string `json:"target"`
	Direction string `json:"direction"`
	MaxDepth  int    `json:"max_depth"`
}

func findPathTool() *tool.Tool {
	in := tool.Object("",
		tool.Req("source", &tool.Schema{Type: "string", MinLength: tool.Ptr(1)}),
		tool.Req("target", &tool.Schema{Type: "string", MinLength: tool.Ptr(1)}),
		tool.Opt("direction", tool.Enum("", "out", "in", "both").Def("out")),
		tool.Opt("max_depth", tool.Integer("", 1, wiki.MaxPathDepth).Def(wiki.DefaultPathDepth)),
	)
	return &tool.Tool{
		Name: "find_path", Group: tool.GroupLinks, Title: "Shortest link path", Idempotent: true,
		Description: "Shortest chain of links from source to target. Use it to see how notes connect.",
		Input:       in,
		Output: tool.Object("The chain, source and target included.",
			tool.Req("found", tool.Boolean("Whether a chain exists within max_depth.")),
			tool.Req("path", tool.ArrayOf("The notes in order; empty when none was found.", tool.Object("",
				tool.Req("path", tool.Str("Note path.")), tool.Req("title", tool.Str("Title."))))),
			tool.Req("length", tool.Integer("How many links the chain has.", 0, 1e9)),
		),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *pathArgs) (any, string, error) {
			res, err := s.Wiki.FindPath(ctx, wiki.PathRequest{Source: a.Source, Target: a.Target, Direction: wiki.Direction(a.Direction), MaxDepth: a.MaxDepth})
			if err != nil {
				return nil, "", err
			}
			if !res.Found {
				depth := a.MaxDepth
				if depth == 0 {
					depth = wiki.DefaultPathDepth
				}
				return res, fmt.Sprintf("No link path from %s to %s within %s.", a.Source, a.Target, render.Plural(depth, "link")), nil
			}
			steps := make([]string, len(res.Path))
			for i, n := range res.Path {
				steps[i] = fmt.Sprintf("%s (%s)", n.Title, n.Path)
			}
			return res, fmt.Sprintf("Path from %s to %s, %s:\n%s", res.Path[0].Path, res.Path[len(res.Path)-1].Path,
				render.Plural(res.Length, "link"), strings.Join(steps, "\n→ ")), nil
		}),
	}
}

type hubsArgs struct {
	Metric string `json:"metric"`
	Folder string `json:"folder"`
	Limit  int    `json:"limit"`
}

func getHubsTool() *tool.Tool {
	in := tool.Object("",
		tool.Opt("metric", tool.Enum("", "in_degree", "out_degree", "pagerank").Def("in_degree")),
		folderProp,
		tool.Opt("limit", tool.Integer("", 1, wiki.MaxHubsLimit).Def(wiki.DefaultHubsLimit)),
	)
	return &tool.Tool{
		Name: "get_hubs", Group: tool.GroupLinks, Title: "Most connected notes", Idempotent: true,
		Description: "Most connected notes by metric. Use it to find central notes.",
		Input:       in,
		Output: tool.Object("The ranked notes.",
			tool.Req("metric", tool.Enum("The metric ranked by.", "in_degree", "out_degree", "pagerank")),
			tool.Req("hubs", tool.ArrayOf("Best first; ties by path.", tool.Object("",
				tool.Req("path", tool.Str("Note path.")),
				tool.Req("title", tool.Str("Title.")),
				tool.Req("score", &tool.Schema{Type: "number", Description: "The metric's value."}),
				tool.Req("in_degree", tool.Integer("Notes that link to it.", 0, 1e9)),
				tool.Req("out_degree", tool.Integer("Notes it links to.", 0, 1e9)),
			))),
		),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *hubsArgs) (any, string, error) {
			res, err := s.Wiki.Hubs(ctx, wiki.HubsRequest{Metric: wiki.HubMetric(a.Metric), Folder: a.Folder, Limit: a.Limit})
			if err != nil {
				return nil, "", err
			}
			return res, render.Hubs(res), nil
		}),
	}
}

type brokenArgs struct {
	Folder         string `json:"folder"`
	IncludeOrphans bool   `json:"include_orphans"`
	Limit          int    `json:"limit"`
	Cursor         string `json:"cursor"`
}

func findBrokenLinksTool() *tool.Tool {
	in := tool.Object("",
		folderProp,
		tool.Opt("include_orphans", tool.Boolean("")),
		tool.Opt("limit", tool.Integer("", 1, wiki.MaxBrokenLimit).Def(wiki.DefaultBrokenLimit)),
		cursorProp,
	)
	return &tool.Tool{
		Name: "find_broken_links", Group: tool.GroupLinks, Title: "Broken links and orphans", Idempotent: true,
		Description: "Links to missing notes, files, headings or blocks; include_orphans adds unlinked notes. Use it for repairs.",
		Input:       in,
		Output: tool.Object("A page of broken links, by note and line.",
			tool.Req("links", tool.ArrayOf("", tool.Object("", append([]tool.Prop{tool.Req("path", tool.Str("The note holding the link."))}, append(linkSiteProps,
				tool.Req("reason", tool.Str(brokenReason)),
				tool.Opt("to", tool.Str("The note the link reaches when only its heading or block is missing.")))...)...))),
			tool.Req("total", tool.Integer("Broken links in all.", 0, 1e9)),
			tool.Opt("next_cursor", tool.Str("Pass as cursor for the next page; absent on the last page.")),
			tool.Opt("orphans", tool.ArrayOf("At most limit orphans, by path.", tool.Object("", tool.Req("path", tool.Str("Note path.")), tool.Req("title", tool.Str("Title."))))),
			tool.Opt("orphans_total", tool.Integer("Orphans in all.", 0, 1e9)),
		),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *brokenArgs) (any, string, error) {
			res, err := s.Wiki.FindBrokenLinks(ctx, wiki.BrokenLinksRequest{Folder: a.Folder, IncludeOrphans: a.IncludeOrphans, Limit: a.Limit, Cursor: a.Cursor})
			if err != nil {
				return nil, "", err
			}
			if res.Links == nil {
				res.Links = []wiki.BrokenLink{}
			}
			return res, render.BrokenLinks(res, a.IncludeOrphans && a.Cursor == ""), nil
		}),
	}
}
