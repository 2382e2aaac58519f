package mcpserver

import (
	"context"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/note"
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

func readNoteTool() *tool {
	in := object("",
		pathProp,
		opt("section", str("")),
		opt("metadata_only", boolean("")),
		opt("version", str("")),
		opt("offset", integer("", 0, 1e9).def(0)),
		opt("max_chars", integer("", 1, 100000).def(wiki.DefaultMaxChars)),
	)
	return &tool{
		name: "read_note", group: GroupNotes, title: "Read a note", idempotent: true,
		description: "Read a note or one section; metadata_only: frontmatter, outline, backlinks. Use it once you know the path.",
		input:       in,
		output:      readResultSchema("The note."),
		run:         bind(in, runRead),
	}
}

func runRead(ctx context.Context, s *Env, a *readArgs) (any, string, error) {
	r, err := s.Wiki.Read(ctx, wiki.ReadRequest{
		Path: a.Path, Section: a.Section, MetadataOnly: a.MetadataOnly,
		Version: a.Version, Offset: a.Offset, MaxChars: a.MaxChars,
	})
	if err != nil {
		return nil, "", err
	}
	return wireRead(r), readText(r, a.MetadataOnly), nil
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

// readText renders a read: a short header, then the content or the
// outline.
func readText(r *wiki.ReadResult, metadataOnly bool) string {
	var b textBuilder
	b.line("# %s", r.Title)
	if r.Commit != "" {
		b.line("path: %s · version %s · last changed in commit %s", r.Path, shortID(r.Version), shortID(r.Commit))
	} else {
		b.line("path: %s · version %s", r.Path, shortID(r.Version))
	}
	b.line("tags: %s", tagList(r.Tags))
	if len(r.Aliases) > 0 {
		b.line("aliases: %s", tagList(r.Aliases))
	}
	if r.Created != nil {
		b.line("created: %s", withGit(*r.Created, r.CreatedSource, r.GitCreated))
	}
	if r.Modified != nil {
		b.line("modified: %s", withGit(*r.Modified, r.ModifiedSource, r.GitModified))
	}
	if r.LocalChange != "" {
		b.line("local change: the checked-out file differs from this committed version (%s, not committed); "+
			"commit it with git to see it here", r.LocalChange)
	}
	for _, w := range r.Warnings {
		b.line("warning: %s", w)
	}
	if metadataOnly {
		if len(r.Properties) > 0 {
			b.line("")
			b.line("frontmatter:")
			for _, k := range sortedKeys(r.Properties) {
				b.line("  %s: %s", k, value(r.Properties[k]))
			}
		}
		if len(r.Headings) > 0 {
			b.line("")
			b.line("outline:")
			for _, h := range r.Headings {
				b.line("  %s %s (line %d)", strings.Repeat("#", h.Level), h.Text, h.Line)
			}
		}
		if len(r.Backlinks) > 0 {
			b.line("")
			b.line("backlinks:")
			for _, bl := range r.Backlinks {
				for _, l := range bl.Links {
					b.line("  %s line %d: %s", bl.Path, l.Line, l.Context)
				}
			}
		}
		return b.String()
	}
	if r.Section != "" {
		b.line("section: %s", r.Section)
	}
	b.line("---")
	b.WriteString(r.Content)
	if r.Truncated {
		if len(r.Content) > 0 && r.Content[len(r.Content)-1] != '\n' {
			b.line("")
		}
		b.line("%s characters %d to %d of %d shown; read on with offset %d", truncatedMark,
			r.Offset, r.NextOffset, r.TotalChars, r.NextOffset)
	}
	return b.String()
}

// withGit renders a read's date with its source, and git's date when the
// frontmatter's is shown.
func withGit(t time.Time, source string, git *time.Time) string {
	s := fmtTime(t) + " (" + source + ")"
	if git != nil {
		s += "; git: " + fmtTime(*git)
	}
	return s
}

// readResultSchema describes wiki.ReadResult.
func readResultSchema(desc string) *schema {
	props := []prop{
		req("path", str("Note path.")),
		opt("file", str("The file in the repository, when its extension is not .md.")),
		req("title", str("Title: frontmatter title, else the first H1, else the file name.")),
		req("tags", strList("Tags from the frontmatter and inline #tags.")),
		opt("aliases", strList("Other names of the note.")),
		opt("properties", openObject("The frontmatter as key → value, without the keys given above; absent when content shows the frontmatter.")),
	}
	props = append(props, dateProps()...)
	props = append(props,
		opt("git_created", dateTime("The time of the note's first commit, where created shows the frontmatter's date.")),
		opt("git_modified", dateTime("The time of the note's last commit, where modified shows the frontmatter's date.")),
		req("version", str("The note's version (blob id): pass it as expected_version when you change the note.")),
		opt("commit", str("The last commit that changed the note (as of the version read); absent while the history index is first built.")),
		opt("local_change", str("Set when the checked-out file differs from the version shown, uncommitted: modified, deleted, "+
			"mode changed, ... The content shown is the committed version.")),
		opt("headings", arrayOf("The outline.", object("",
			req("level", integer("", 1, 6)), req("text", str("")), req("line", integer("", 1, 1e9))))),
		opt("backlinks", arrayOf("With metadata_only: the notes that link to this one, by path.", backlinkSchema)),
		opt("section", str("The heading of the section read.")),
		opt("content", str("The content (or the section's), from offset.")),
		opt("offset", integer("First character returned.", 0, 1e9)),
		req("total_chars", integer("Characters in the content (or section) in all.", 0, 1e12)),
		opt("truncated", boolean("Set when characters follow: continue with offset next_offset.")),
		opt("next_offset", integer("The offset that continues a truncated read.", 0, 1e12)),
		opt("warnings", strList("Problems with the note, such as malformed frontmatter.")),
	)
	return object(desc, props...)
}
