package obsidian

import (
	"context"
	"strings"

	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// Link management: backlinks, outgoing and broken links.

type obBacklinksArgs struct {
	Path           string `json:"path"`
	IncludeContext *bool  `json:"include_context"`
	ContextLength  *int   `json:"context_length"`
}

func obBacklinks() *tool.Tool {
	in := tool.SeedObject([]string{"path"},
		obPath("Path to the note to find backlinks for"),
		tool.Opt("include_context", tool.Boolean("Include the text surrounding each link").Def(true)),
		tool.Opt("context_length", obInt("How much surrounding text to show for each link (in characters)", 50, 500, 100)),
	)
	return &tool.Tool{
		Name: "get_backlinks", Group: tool.GroupLinks,
		Description: "Find all notes that link to a specific note, from the link index (fast at any size). Use get_outgoing_links for links from it.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obBacklinksArgs) (any, error) {
			width, err := obInRange("context_length", a.ContextLength, 50, 500, 100)
			if err != nil {
				return nil, err
			}
			withContext := a.IncludeContext == nil || *a.IncludeContext
			res, err := s.Wiki.Links(ctx, wiki.LinksRequest{Path: a.Path, Direction: wiki.DirIn, Limit: 200})
			if err != nil {
				return nil, err
			}
			findings := []map[string]any{}
			for _, b := range res.Incoming {
				file := obFile(ctx, s, b.Path)
				for _, l := range b.Links {
					f := map[string]any{"source_path": file, "source_title": b.Title, "line": l.Line, "link_type": l.Kind, "link_text": l.Target}
					if withContext {
						f["context"] = clipped(l.Context, width)
					}
					findings = append(findings, f)
				}
			}
			return map[string]any{"findings": findings, "summary": map[string]any{"total_backlinks": len(findings), "unique_sources": len(res.Incoming),
				"note_exists": res.Exists}, "target": a.Path, "scope": map[string]any{"include_context": withContext, "context_length": width}}, nil
		}),
	}
}

type obOutgoingArgs struct {
	Path          string `json:"path"`
	CheckValidity bool   `json:"check_validity"`
}

func obOutgoing() *tool.Tool {
	in := tool.SeedObject([]string{"path"},
		obPath("Path to the note to extract links from"),
		tool.Opt("check_validity", tool.Boolean("Also check if each linked note actually exists in your vault").Def(false)),
	)
	return &tool.Tool{
		Name: "get_outgoing_links", Group: tool.GroupLinks,
		Description: "List all links from a specific note, with their types. Use get_backlinks for links to it.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obOutgoingArgs) (any, error) {
			res, err := s.Wiki.Links(ctx, wiki.LinksRequest{Path: a.Path, Direction: wiki.DirOut, Limit: 200})
			if err != nil {
				return nil, err
			}
			findings := []map[string]any{}
			broken := 0
			for _, l := range res.Outgoing {
				f := map[string]any{"target": l.Target, "type": l.Kind, "line": l.Line}
				if l.Heading != "" {
					f["heading"] = l.Heading
				}
				if a.CheckValidity {
					f["exists"] = l.Broken == ""
					if l.Broken != "" {
						f["reason"], broken = l.Broken, broken+1
					} else {
						f["resolved_path"] = l.Path
					}
				}
				findings = append(findings, f)
			}
			summary := map[string]any{"total_links": len(findings)}
			if a.CheckValidity {
				summary["broken_links"] = broken
			}
			return map[string]any{"findings": findings, "summary": summary, "target": a.Path, "scope": map[string]any{"check_validity": a.CheckValidity}}, nil
		}),
	}
}

type obBrokenArgs struct {
	Directory  string `json:"directory"`
	SingleNote string `json:"single_note"`
}

func obBroken() *tool.Tool {
	in := tool.SeedObject(nil,
		tool.Opt("directory", tool.Str("Check only this folder and its subfolders. Leave empty to check entire vault.")),
		tool.Opt("single_note", tool.Str("Check links in just this one note instead of the whole vault or directory")),
	)
	return &tool.Tool{
		Name: "find_broken_links", Group: tool.GroupLinks,
		Description: "Find all broken links in the vault, a directory, or a single note. Use get_outgoing_links for every link of a note.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obBrokenArgs) (any, error) {
			findings := []map[string]any{}
			target := "vault"
			if a.SingleNote != "" {
				target = a.SingleNote
				res, err := s.Wiki.Links(ctx, wiki.LinksRequest{Path: a.SingleNote, Direction: wiki.DirOut, Limit: 200})
				if err != nil {
					return nil, err
				}
				for _, l := range res.Outgoing {
					if l.Broken != "" {
						findings = append(findings, map[string]any{"source_path": a.SingleNote, "line": l.Line, "target": l.Target, "type": l.Kind, "reason": l.Broken})
					}
				}
			} else {
				if a.Directory != "" {
					target = a.Directory
				}
				cursor := ""
				for {
					res, err := s.Wiki.FindBrokenLinks(ctx, wiki.BrokenLinksRequest{Folder: strings.Trim(a.Directory, "/"), Limit: 200, Cursor: cursor})
					if err != nil {
						return nil, err
					}
					for _, l := range res.Links {
						findings = append(findings, map[string]any{"source_path": obFile(ctx, s, l.Path), "line": l.Line, "target": l.Target, "type": l.Kind, "reason": l.Reason})
					}
					if cursor = res.NextCursor; cursor == "" || len(findings) >= 5000 {
						break
					}
				}
			}
			sources := map[any]bool{}
			for _, f := range findings {
				sources[f["source_path"]] = true
			}
			return map[string]any{"findings": findings, "summary": map[string]any{"broken_links": len(findings), "affected_notes": len(sources)},
				"target": target, "scope": map[string]any{"directory": a.Directory, "single_note": a.SingleNote}}, nil
		}),
	}
}
