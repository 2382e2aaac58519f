package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

type readArgs struct {
	Path         string `json:"path"`
	Section      string `json:"section"`
	MetadataOnly bool   `json:"metadata_only"`
	Version      string `json:"version"`
	Offset       int    `json:"offset"`
	MaxChars     int    `json:"max_chars"`
}

func readNoteTool() *tool.Tool {
	in := tool.Object("",
		pathProp,
		tool.Opt("section", tool.Str("")),
		tool.Opt("metadata_only", tool.Boolean("")),
		tool.Opt("version", tool.Str("")),
		tool.Opt("offset", tool.Integer("", 0, 1e9).Def(0)),
		tool.Opt("max_chars", tool.Integer("", 1, 100000).Def(wiki.DefaultMaxChars)),
	)
	return &tool.Tool{
		Name: "read_note", Group: tool.GroupNotes, Title: "Read a note", Idempotent: true,
		Description: "Read a note or one section; metadata_only: frontmatter, outline, backlinks. Use it once you know the path.",
		Input:       in,
		Output:      readResultSchema("The note."),
		Run:         tool.Bind(in, runRead),
	}
}

func runRead(ctx context.Context, s *tool.Env, a *readArgs) (any, string, error) {
	r, err := s.Wiki.Read(ctx, wiki.ReadRequest{
		Path: a.Path, Section: a.Section, MetadataOnly: a.MetadataOnly,
		Version: a.Version, Offset: a.Offset, MaxChars: a.MaxChars,
	})
	if err != nil {
		return nil, "", err
	}
	return wireRead(r), render.Read(r, a.MetadataOnly), nil
}

// wireRead is a read as the model gets it, nothing said twice: the file
// only when its extension is not .md; the properties only when the content
// does not show the frontmatter, and without the keys that title, tags,
// aliases and the frontmatter's dates already give.
func wireRead(r *wiki.ReadResult) *wiki.ReadResult {
	out := *r
	if out.File == out.Path+".md" {
		out.File = ""
	}
	if r.Section == "" && r.Offset == 0 && showsFrontmatter(r.Content) {
		out.Properties = nil
		return &out
	}
	out.Properties = make(map[string]any, len(r.Properties))
	for k, v := range r.Properties {
		switch note.FieldOf(k) {
		case "title", "tags", "aliases":
			continue
		case "created":
			if r.CreatedSource == "frontmatter" {
				continue
			}
		case "modified":
			if r.ModifiedSource == "frontmatter" {
				continue
			}
		}
		out.Properties[k] = v
	}
	if len(out.Properties) == 0 {
		out.Properties = nil
	}
	return &out
}

// showsFrontmatter reports whether content starts with a whole
// frontmatter block.
func showsFrontmatter(content string) bool {
	content = strings.TrimPrefix(content, "\ufeff")
	rest, ok := strings.CutPrefix(content, "---\n")
	if !ok {
		rest, ok = strings.CutPrefix(content, "---\r\n")
	}
	return ok && (strings.HasPrefix(rest, "---") || strings.Contains(rest, "\n---"))
}

// readResultSchema describes wiki.ReadResult.
func readResultSchema(desc string) *tool.Schema {
	props := []tool.Prop{
		tool.Req("path", tool.Str("Note path.")),
		tool.Opt("file", tool.Str("The file in the repository, when its extension is not .md.")),
		tool.Req("title", tool.Str("Title: frontmatter title, else the first H1, else the file name.")),
		tool.Req("tags", tool.StrList("Tags from the frontmatter and inline #tags.")),
		tool.Opt("aliases", tool.StrList("Other names of the note.")),
		tool.Opt("properties", tool.OpenObject("The frontmatter as key → value, without the keys given above; absent when content shows the frontmatter.")),
	}
	props = append(props, dateProps()...)
	props = append(props,
		tool.Opt("git_created", dateTime("The time of the note's first commit, where created shows the frontmatter's date.")),
		tool.Opt("git_modified", dateTime("The time of the note's last commit, where modified shows the frontmatter's date.")),
		tool.Req("version", tool.Str("The note's version (blob id): pass it as expected_version when you change the note.")),
		tool.Opt("commit", tool.Str("The last commit that changed the note (as of the version read); absent while the history index is first built.")),
		tool.Opt("local_change", tool.Str("Set when the checked-out file differs from the version shown, uncommitted: modified, deleted, "+
			"mode changed, ... The content shown is the committed version.")),
		tool.Opt("headings", tool.ArrayOf("The outline.", tool.Object("",
			tool.Req("level", tool.Integer("", 1, 6)), tool.Req("text", tool.Str("")), tool.Req("line", tool.Integer("", 1, 1e9))))),
		tool.Opt("backlinks", tool.ArrayOf(fmt.Sprintf("With metadata_only: the notes that link to this one, by path; the first %d.", wiki.ReadBacklinks), backlinkSchema)),
		tool.Opt("more_backlinks", tool.Integer("How many other notes link to this one, not listed: get_links lists them all.", 1, 1e12)),
		tool.Opt("section", tool.Str("The heading of the section read.")),
		tool.Opt("content", tool.Str("The content (or the section's), from offset.")),
		tool.Opt("offset", tool.Integer("First character returned.", 0, 1e9)),
		tool.Req("total_chars", tool.Integer("Characters in the content (or section) in all.", 0, 1e12)),
		tool.Opt("truncated", tool.Boolean("Set when characters follow: continue with offset next_offset.")),
		tool.Opt("next_offset", tool.Integer("The offset that continues a truncated read.", 0, 1e12)),
		tool.Opt("warnings", tool.StrList("Problems with the note, such as malformed frontmatter.")),
	)
	return tool.Object(desc, props...)
}
