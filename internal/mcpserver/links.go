package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

// brokenReason describes why a link is broken.
const brokenReason = "Why it is broken: no such note, no such file (an attachment), no such heading, or no block ^id " +
	"for a block reference."

// Schemas of the link graph's results.
var (
	linkSiteProps = []prop{
		req("line", integer("The line the link is on.", 1, 1e9)),
		req("kind", enum("wiki: [[target]], embed: ![[target]], markdown: [text](path.md).", "wiki", "embed", "markdown")),
		req("target", str("The target as written, without heading or label.")),
		opt("heading", str("The heading (or ^block) after '#', as written.")),
		req("context", str("The line the link sits on, trimmed, at most about 200 characters around the link.")),
	}
	backlinkSchema = object("A note that links to this one.",
		req("path", str("The linking note.")),
		req("title", str("Its title.")),
		req("links", arrayOf("Its links to this note, in order.", object("", linkSiteProps...))),
	)
)

type linksArgs struct {
	Path           string `json:"path"`
	Direction      string `json:"direction"`
	Depth          int    `json:"depth"`
	Limit          int    `json:"limit"`
	IncludeContent bool   `json:"include_content"`
}

func getLinksTool() *tool {
	in := object("",
		pathProp,
		opt("direction", enum("", "in", "out", "both").def("both")),
		opt("depth", integer("", 1, wiki.MaxLinksDepth).def(1)),
		opt("limit", integer("", 1, wiki.MaxLinksLimit).def(wiki.DefaultLinksLimit)),
		opt("include_content", boolean("")),
	)
	neighbor := object("",
		req("path", str("Note path.")),
		req("title", str("Title.")),
		req("via", str("The note one link closer through which it was reached.")),
		req("direction", enum("out: via links to it; in: it links to via; both.", "in", "out", "both")),
		opt("content", str("The start of its text, with include_content.")),
		opt("truncated", boolean("Set when content was cut.")),
	)
	return &tool{
		name: "get_links", group: GroupLinks, title: "Links of a note", idempotent: true,
		description: "Backlinks and outgoing links of a note (even a missing one); depth goes further. Use find_path for chains.",
		input:       in,
		output: object("The links around the note.",
			req("path", str("Note path.")),
			opt("title", str("Its title, when it exists.")),
			req("exists", boolean("False for a path without a note.")),
			req("incoming", arrayOf("Notes that link to it, by path.", backlinkSchema)),
			req("incoming_total", integer("How many notes link to it.", 0, 1e9)),
			req("outgoing", arrayOf("Its links in order.", object("", append(linkSiteProps,
				opt("path", str("The note (or embedded file) the link resolves to; absent when broken.")),
				opt("title", str("The title of that note.")),
				opt("broken", str(brokenReason+" Absent when the link resolves.")),
				opt("ambiguous", strList("For a bare name that names several notes or files: the others (path is the one chosen).")),
			)...))),
			req("outgoing_total", integer("How many links it has.", 0, 1e9)),
			req("neighbors", arrayOf("The notes at each distance from 1 to depth.", object("",
				req("depth", integer("Links away.", 1, wiki.MaxLinksDepth)),
				req("total", integer("How many notes are this far.", 0, 1e9)),
				req("notes", arrayOf("At most limit of them, by path.", neighbor)),
			))),
		),
		run: bind(in, func(ctx context.Context, s *Env, a *linksArgs) (any, string, error) {
			res, err := s.Wiki.Links(ctx, wiki.LinksRequest{Path: a.Path, Direction: wiki.Direction(a.Direction), Depth: a.Depth,
				Limit: a.Limit, IncludeContent: a.IncludeContent})
			if err != nil {
				return nil, "", err
			}
			for i := range res.Neighbors {
				for j := range res.Neighbors[i].Notes {
					if n := &res.Neighbors[i].Notes[j]; n.Truncated {
						n.Content += truncatedMark
					}
				}
			}
			return res, linksText(res), nil
		}),
	}
}

// linksText renders get_links in the style of get_backlinks.
func linksText(r *wiki.LinksResult) string {
	var b textBuilder
	if !r.Exists {
		b.line("Note %s does not exist.", r.Path)
		if r.IncomingTotal == 0 {
			b.line("No notes link to this path.")
			return b.String()
		}
		b.line("")
		b.line("However, %s to this path:", plural(r.IncomingTotal, "note")+" "+verb(r.IncomingTotal, "has links", "have links"))
	} else {
		b.line("Links of %s (%s)", r.Title, r.Path)
		if len(r.Incoming) > 0 || r.IncomingTotal > 0 {
			b.line("")
			b.line("Backlinks from %s:", plural(r.IncomingTotal, "note"))
		} else if len(r.Outgoing) == 0 && r.OutgoingTotal == 0 && len(r.Neighbors) == 0 {
			b.line("No notes link to %s, and it links to none.", r.Path)
		}
	}
	for _, bl := range r.Incoming {
		lines := make([]string, len(bl.Links))
		for i, l := range bl.Links {
			lines[i] = fmt.Sprint(l.Line)
		}
		b.line("- **%s** (%s)", bl.Title, bl.Path)
		b.line("  %s - %s %s", plural(len(bl.Links), "link"), verb(len(bl.Links), "line", "lines"), strings.Join(lines, ", "))
		for _, l := range bl.Links {
			b.line("  %d: %s", l.Line, l.Context)
		}
	}
	if more := r.IncomingTotal - len(r.Incoming); more > 0 {
		b.line("- and %d more (raise limit)", more)
	}
	if r.Exists && r.OutgoingTotal > 0 {
		b.line("")
		b.line("Outgoing links (%d):", r.OutgoingTotal)
		for _, l := range r.Outgoing {
			target := l.Target
			if l.Heading != "" {
				target += "#" + l.Heading
			}
			switch {
			case l.Broken != "":
				b.line("- line %d: %s → broken: %s", l.Line, target, l.Broken)
			case len(l.Ambiguous) > 0:
				b.line("- line %d: %s → %s (%s; the name also names %s)", l.Line, target, l.Title, l.Path, strings.Join(l.Ambiguous, ", "))
			case l.Title != "":
				b.line("- line %d: %s → %s (%s)", l.Line, target, l.Title, l.Path)
			default:
				b.line("- line %d: %s → %s", l.Line, target, l.Path)
			}
		}
		if more := r.OutgoingTotal - len(r.Outgoing); more > 0 {
			b.line("- and %d more (raise limit)", more)
		}
	}
	for _, lv := range r.Neighbors {
		if lv.Depth == 1 && !hasContent(lv) {
			continue
		}
		b.line("")
		b.line("%s %s away:", plural(lv.Total, "note"), plural(lv.Depth, "link"))
		for _, n := range lv.Notes {
			b.line("- %s (%s), via %s (%s)", n.Title, n.Path, n.Via, n.Direction)
			if n.Content != "" {
				b.line("  %s", oneLine(n.Content))
			}
		}
		if more := lv.Total - len(lv.Notes); more > 0 {
			b.line("- and %d more (raise limit)", more)
		}
	}
	return b.String()
}

func hasContent(lv wiki.NeighborLevel) bool {
	for _, n := range lv.Notes {
		if n.Content != "" {
			return true
		}
	}
	return false
}

// verb picks the singular or plural form for n.
func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

type pathArgs struct {
	Source    string `json:"source"`
	Target    string `json:"target"`
	Direction string `json:"direction"`
	MaxDepth  int    `json:"max_depth"`
}

func findPathTool() *tool {
	in := object("",
		req("source", &schema{Type: "string", MinLength: ptr(1)}),
		req("target", &schema{Type: "string", MinLength: ptr(1)}),
		opt("direction", enum("", "out", "in", "both").def("out")),
		opt("max_depth", integer("", 1, wiki.MaxPathDepth).def(wiki.DefaultPathDepth)),
	)
	return &tool{
		name: "find_path", group: GroupLinks, title: "Shortest link path", idempotent: true,
		description: "Shortest chain of links from source to target. Use it to see how notes connect.",
		input:       in,
		output: object("The chain, source and target included.",
			req("found", boolean("Whether a chain exists within max_depth.")),
			req("path", arrayOf("The notes in order; empty when none was found.", object("",
				req("path", str("Note path.")), req("title", str("Title."))))),
			req("length", integer("How many links the chain has.", 0, 1e9)),
		),
		run: bind(in, func(ctx context.Context, s *Env, a *pathArgs) (any, string, error) {
			res, err := s.Wiki.FindPath(ctx, wiki.PathRequest{Source: a.Source, Target: a.Target, Direction: wiki.Direction(a.Direction), MaxDepth: a.MaxDepth})
			if err != nil {
				return nil, "", err
			}
			if !res.Found {
				depth := a.MaxDepth
				if depth == 0 {
					depth = wiki.DefaultPathDepth
				}
				return res, fmt.Sprintf("No link path from %s to %s within %s.", a.Source, a.Target, plural(depth, "link")), nil
			}
			steps := make([]string, len(res.Path))
			for i, n := range res.Path {
				steps[i] = fmt.Sprintf("%s (%s)", n.Title, n.Path)
			}
			return res, fmt.Sprintf("Path from %s to %s, %s:\n%s", res.Path[0].Path, res.Path[len(res.Path)-1].Path,
				plural(res.Length, "link"), strings.Join(steps, "\n→ ")), nil
		}),
	}
}

type hubsArgs struct {
	Metric string `json:"metric"`
	Folder string `json:"folder"`
	Limit  int    `json:"limit"`
}

func getHubsTool() *tool {
	in := object("",
		opt("metric", enum("", "in_degree", "out_degree", "pagerank").def("in_degree")),
		folderProp,
		opt("limit", integer("", 1, wiki.MaxHubsLimit).def(wiki.DefaultHubsLimit)),
	)
	return &tool{
		name: "get_hubs", group: GroupLinks, title: "Most connected notes", idempotent: true,
		description: "Most connected notes by metric. Use it to find central notes.",
		input:       in,
		output: object("The ranked notes.",
			req("metric", enum("The metric ranked by.", "in_degree", "out_degree", "pagerank")),
			req("hubs", arrayOf("Best first; ties by path.", object("",
				req("path", str("Note path.")),
				req("title", str("Title.")),
				req("score", &schema{Type: "number", Description: "The metric's value."}),
				req("in_degree", integer("Notes that link to it.", 0, 1e9)),
				req("out_degree", integer("Notes it links to.", 0, 1e9)),
			))),
		),
		run: bind(in, func(ctx context.Context, s *Env, a *hubsArgs) (any, string, error) {
			res, err := s.Wiki.Hubs(ctx, wiki.HubsRequest{Metric: wiki.HubMetric(a.Metric), Folder: a.Folder, Limit: a.Limit})
			if err != nil {
				return nil, "", err
			}
			var b textBuilder
			if len(res.Hubs) == 0 {
				b.line("No notes.")
				return res, b.String(), nil
			}
			b.line("Top notes by %s:", res.Metric)
			for i, h := range res.Hubs {
				score := fmt.Sprintf("%g", h.Score)
				if res.Metric == wiki.HubPageRank {
					score = fmt.Sprintf("%.4f", h.Score)
				}
				b.line("%d. %s (%s) — %s (in %d, out %d)", i+1, h.Title, h.Path, score, h.InDegree, h.OutDegree)
			}
			return res, b.String(), nil
		}),
	}
}

type brokenArgs struct {
	Folder         string `json:"folder"`
	IncludeOrphans bool   `json:"include_orphans"`
	Limit          int    `json:"limit"`
	Cursor         string `json:"cursor"`
}

func findBrokenLinksTool() *tool {
	in := object("",
		folderProp,
		opt("include_orphans", boolean("")),
		opt("limit", integer("", 1, wiki.MaxBrokenLimit).def(wiki.DefaultBrokenLimit)),
		cursorProp,
	)
	return &tool{
		name: "find_broken_links", group: GroupLinks, title: "Broken links and orphans", idempotent: true,
		description: "Links to missing notes, files, headings or blocks; include_orphans adds unlinked notes. Use it for repairs.",
		input:       in,
		output: object("A page of broken links, by note and line.",
			req("links", arrayOf("", object("", append([]prop{req("path", str("The note holding the link."))}, append(linkSiteProps,
				req("reason", str(brokenReason)),
				opt("to", str("The note the link reaches when only its heading or block is missing.")))...)...))),
			req("total", integer("Broken links in all.", 0, 1e9)),
			opt("next_cursor", str("Pass as cursor for the next page; absent on the last page.")),
			opt("orphans", arrayOf("At most limit orphans, by path.", object("", req("path", str("Note path.")), req("title", str("Title."))))),
			opt("orphans_total", integer("Orphans in all.", 0, 1e9)),
		),
		run: bind(in, func(ctx context.Context, s *Env, a *brokenArgs) (any, string, error) {
			res, err := s.Wiki.FindBrokenLinks(ctx, wiki.BrokenLinksRequest{Folder: a.Folder, IncludeOrphans: a.IncludeOrphans, Limit: a.Limit, Cursor: a.Cursor})
			if err != nil {
				return nil, "", err
			}
			if res.Links == nil {
				res.Links = []wiki.BrokenLink{}
			}
			var b textBuilder
			if res.Total == 0 {
				b.line("No broken links.")
			} else {
				b.line("%s (showing %d):", plural(res.Total, "broken link"), len(res.Links))
				for _, l := range res.Links {
					target := l.Target
					if l.Heading != "" {
						target += "#" + l.Heading
					}
					reason := l.Reason
					if l.To != "" {
						reason += " in " + l.To
					}
					b.line("- %s line %d: %s — %s", l.Path, l.Line, target, reason)
					b.line("  %s", l.Context)
				}
				if res.NextCursor != "" {
					b.line("More: pass cursor %s.", res.NextCursor)
				}
			}
			if a.IncludeOrphans && a.Cursor == "" {
				b.line("")
				if res.OrphansTotal == 0 {
					b.line("No orphans: every note is linked from another one.")
				} else {
					b.line("%s that no other note links to:", plural(res.OrphansTotal, "orphan"))
					for _, o := range res.Orphans {
						b.line("- %s (%s)", o.Title, o.Path)
					}
					if more := res.OrphansTotal - len(res.Orphans); more > 0 {
						b.line("- and %d more", more)
					}
				}
			}
			return res, b.String(), nil
		}),
	}
}
