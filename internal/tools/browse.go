package tools

import (
	"context"
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

type listArgs struct {
	Path      string `json:"path"`
	Recursive bool   `json:"recursive"`
	Tag       string `json:"tag"`
	Sort      string `json:"sort"`
	Limit     int    `json:"limit"`
	Cursor    string `json:"cursor"`
}

func listNotesTool() *tool.Tool {
	in := tool.Object("",
		tool.Opt("path", tool.Str("")),
		tool.Opt("recursive", tool.Boolean("")),
		tool.Opt("tag", tool.Str("")),
		tool.Opt("sort", tool.Enum("", "alpha", "modified", "created").Def("alpha")),
		tool.Opt("limit", tool.Integer("", 1, wiki.MaxListLimit).Def(wiki.DefaultListLimit)),
		cursorProp,
	)
	summary := func(desc string) *tool.Schema {
		return tool.Object(desc, append([]tool.Prop{
			tool.Req("path", tool.Str("Note path.")),
			tool.Req("title", tool.Str("Title.")),
			tool.Req("tags", tool.StrList("Tags.")),
		}, dateProps()...)...)
	}
	return &tool.Tool{
		Name: "list_notes", Group: tool.GroupSearch, Title: "Browse a folder", Idempotent: true,
		Description: "Browse the folder at path: notes, subfolders, and the note at its own path. Use search_notes for content.",
		Input:       in,
		Output: tool.Object("One page of the folder.",
			tool.Req("path", tool.Str("The folder listed; empty for the root.")),
			tool.Opt("note", summary("The note whose path is the folder's path.")),
			tool.Req("folders", tool.ArrayOf("Subfolders (first page only).", tool.Object("",
				tool.Req("path", tool.Str("Folder path.")), tool.Req("notes", tool.Integer("Notes in it at any depth.", 0, 1e9))))),
			tool.Req("notes", tool.ArrayOf("The notes of this page.", summary(""))),
			tool.Req("total", tool.Integer("Notes listed over all pages.", 0, 1e9)),
			tool.Opt("next_cursor", tool.Str("Pass as cursor to get the next page; absent on the last page.")),
		),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *listArgs) (any, string, error) {
			res, err := s.Wiki.List(ctx, wiki.ListRequest{Path: a.Path, Recursive: a.Recursive, Tag: a.Tag, Sort: a.Sort, Limit: a.Limit, Cursor: a.Cursor})
			if err != nil {
				return nil, "", err
			}
			return res, render.List(res), nil
		}),
	}
}

type tagsArgs struct {
	Prefix string `json:"prefix"`
	Folder string `json:"folder"`
	Limit  int    `json:"limit"`
	Cursor string `json:"cursor"`
}

type tagsOutput struct {
	Tags       []wiki.TagCount `json:"tags"`
	Total      int             `json:"total"`
	NextCursor string          `json:"next_cursor,omitempty"`
}

func listTagsTool() *tool.Tool {
	in := tool.Object("",
		tool.Opt("prefix", tool.Str("")),
		folderProp,
		tool.Opt("limit", tool.Integer("", 1, 1000).Def(100)),
		cursorProp,
	)
	return &tool.Tool{
		Name: "list_tags", Group: tool.GroupSearch, Title: "Tags in use", Idempotent: true,
		Description: "Tags in use with note counts. Use it before tagging or searching by tag.",
		Input:       in,
		Output: tool.Object("One page of tags.",
			tool.Req("tags", tool.ArrayOf("", tool.Object("", tool.Req("tag", tool.Str("The tag.")), tool.Req("count", tool.Integer("Notes with it.", 0, 1e9))))),
			tool.Req("total", tool.Integer("Tags in all.", 0, 1e9)),
			tool.Opt("next_cursor", tool.Str("Pass as cursor to get the next page; absent on the last page.")),
		),
		Run: tool.Bind(in, runTags),
	}
}

func runTags(ctx context.Context, s *tool.Env, a *tagsArgs) (any, string, error) {
	start := 0
	if a.Cursor != "" {
		b, err := base64.RawURLEncoding.DecodeString(a.Cursor)
		n, err2 := strconv.Atoi(strings.TrimPrefix(string(b), "tags:"))
		if err != nil || err2 != nil || n <= 0 || !strings.HasPrefix(string(b), "tags:") {
			return nil, "", wiki.Errorf(wiki.CodeInvalidParams, "bad cursor").
				WithHint("pass the next_cursor of the previous page unchanged, or omit it to start over")
		}
		start = n
	}
	limit := a.Limit
	if limit == 0 {
		limit = 100
	}
	tags, err := s.Wiki.Tags(ctx, wiki.TagsRequest{Prefix: a.Prefix, Folder: a.Folder})
	if err != nil {
		return nil, "", err
	}
	out := &tagsOutput{Tags: []wiki.TagCount{}, Total: len(tags)}
	if start < len(tags) {
		end := min(start+limit, len(tags))
		out.Tags = tags[start:end]
		if end < len(tags) {
			out.NextCursor = base64.RawURLEncoding.EncodeToString([]byte("tags:" + strconv.Itoa(end)))
		}
	}
	return out, render.Tags(out.Tags, out.Total, out.NextCursor), nil
}

type grepArgs struct {
	Pattern       string `json:"pattern"`
	Regex         bool   `json:"regex"`
	CaseSensitive bool   `json:"case_sensitive"`
	Folder        string `json:"folder"`
	Limit         int    `json:"limit"`
}

func grepNotesTool() *tool.Tool {
	in := tool.Object("",
		tool.Req("pattern", &tool.Schema{Type: "string", MinLength: tool.Ptr(1), MaxLength: tool.Ptr(wiki.MaxGrepPattern)}),
		tool.Opt("regex", tool.Boolean("")),
		tool.Opt("case_sensitive", tool.Boolean("")),
		folderProp,
		tool.Opt("limit", tool.Integer("", 1, 1000).Def(wiki.DefaultGrepLimit)),
	)
	return &tool.Tool{
		Name: "grep_notes", Group: tool.GroupSearch, Title: "Find exact lines", Idempotent: true,
		Description: "Lines with exact text or an RE2 regex, with path and line. Use it for exact strings; search_notes for " +
			"topics.",
		Input: in,
		Output: tool.Object("The matching lines.",
			tool.Req("matches", tool.ArrayOf("", tool.Object("",
				tool.Req("path", tool.Str("Note path.")), tool.Req("line", tool.Integer("Line number.", 1, 1e9)), tool.Req("text", tool.Str("The line."))))),
			tool.Opt("truncated", tool.Boolean("Set when more lines match than limit.")),
		),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *grepArgs) (any, string, error) {
			res, err := s.Wiki.Grep(ctx, wiki.GrepRequest{Pattern: a.Pattern, Regex: a.Regex, CaseSensitive: a.CaseSensitive, Folder: a.Folder, Limit: a.Limit})
			if err != nil {
				return nil, "", err
			}
			return res, render.Grep(a.Pattern, res), nil
		}),
	}
}
