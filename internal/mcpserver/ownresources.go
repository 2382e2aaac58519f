package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/tools"
	"github.com/wikid/wikid/internal/wiki"
)

// The resources of wikid's own profile besides a note and wiki://recent:
// what the prompts embed, each readable on its own.
const (
	// historyURIPrefix starts a note's history: its commits and the diffs
	// of its latest changes.
	historyURIPrefix = "wiki://history/"
	// commitURIPrefix starts a commit: what it changed, with its diff.
	commitURIPrefix = "wiki://commit/"
	// activityURIPrefix starts the wiki's commits since a day.
	activityURIPrefix = "wiki://activity/"
	// tagURIPrefix starts the notes with a tag.
	tagURIPrefix = "wiki://tag/"
)

// Limits of what the resources hold, so that a prompt that embeds them
// stays within what a model reads well.
const (
	historyLimit    = 20    // commits a history lists
	historyDiffs    = 3     // latest changes a history shows the diff of
	noteDiffChars   = 4000  // of each such diff
	commitChars     = 12000 // of a commit's diff
	activityLimit   = 50    // commits an activity lists
	tagNotesLimit   = 50    // notes a tag lists
	truncatedNotice = "\n... [truncated]"
)

// addHistoryResources registers the templates of wikid's own resources,
// those of the served tool groups.
func (s *Server) addHistoryResources() {
	text := func(uri, name, desc string, read func(context.Context, string) (string, error)) {
		group := tool.GroupHistory
		if strings.HasPrefix(uri, tagURIPrefix) {
			group = tool.GroupSearch
		}
		if !s.groupEnabled(group) {
			return
		}
		s.mcp.AddResourceTemplate(mcp.NewResourceTemplate(uri, name,
			mcp.WithTemplateDescription(desc), mcp.WithTemplateMIMEType("text/plain")),
			func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
				t, err := read(ctx, req.Params.URI)
				if err != nil {
					return nil, s.resourceError(ctx, req.Params.URI, err)
				}
				return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: t}}, nil
			})
	}
	text(historyURIPrefix+"{+path}", "note history",
		fmt.Sprintf("The commits that changed a note, newest first (at most %d), and the diffs of its %d latest changes: "+
			"wiki://history/ then the note path, e.g. wiki://history/projects/alpha/plan.", historyLimit, historyDiffs),
		func(ctx context.Context, uri string) (string, error) {
			p, err := uriPath(uri, historyURIPrefix)
			if err != nil {
				return "", err
			}
			return s.historyText(ctx, p)
		})
	text(commitURIPrefix+"{rev}", "commit",
		"What a commit changed: its files and its diff. wiki://commit/ then a commit id (short or full), HEAD or HEAD~N.",
		func(ctx context.Context, uri string) (string, error) {
			rev, err := uriPath(uri, commitURIPrefix)
			if err != nil {
				return "", err
			}
			return s.commitText(ctx, rev)
		})
	text(activityURIPrefix+"{since}", "activity",
		fmt.Sprintf("The wiki's commits since a day, newest first (at most %d), with who made them and with which client and tool: "+
			"wiki://activity/ then the day as YYYY-MM-DD.", activityLimit),
		func(ctx context.Context, uri string) (string, error) {
			since, err := uriPath(uri, activityURIPrefix)
			if err != nil {
				return "", err
			}
			return s.activityText(ctx, since)
		})
	text(tagURIPrefix+"{tag}", "tag",
		fmt.Sprintf("The notes with a tag (nested tags included), most recently changed first (at most %d): wiki://tag/ then the tag.", tagNotesLimit),
		func(ctx context.Context, uri string) (string, error) {
			tag, err := uriPath(uri, tagURIPrefix)
			if err != nil {
				return "", err
			}
			return s.tagText(ctx, tag)
		})
}

// historyText is a note's history and the diffs of its latest changes.
func (s *Server) historyText(ctx context.Context, notePath string) (string, error) {
	res, err := s.w.History(ctx, wiki.HistoryRequest{Path: notePath, Limit: historyLimit})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(s.prof.Words.Say(render.History(res)))
	for _, r := range res.Revisions[:min(historyDiffs, len(res.Revisions))] {
		d, err := s.w.Diff(ctx, wiki.DiffRequest{Path: r.Path, To: r.Commit})
		if err != nil {
			// A version missing from a partial clone: the list says enough.
			continue
		}
		fmt.Fprintf(&b, "\n\nChange %s, %s: %s\n%s", r.Short, render.Time(r.Date), r.Subject, cut(d.Diff, noteDiffChars))
	}
	return b.String(), nil
}

// commitText is what a commit changed: its message, files and diff.
func (s *Server) commitText(ctx context.Context, rev string) (string, error) {
	c, err := s.w.Commit(ctx, rev)
	if err != nil {
		return "", err
	}
	d, err := s.w.Diff(ctx, wiki.DiffRequest{To: c.ID})
	if err != nil {
		return "", err
	}
	via := ""
	if c.Tool != "" {
		via = fmt.Sprintf(" via %s (%s)", c.Tool, c.Client)
	}
	head := fmt.Sprintf("Commit %s by %s%s, %s: %s\n", c.Short, c.Author.Name, via, render.Time(c.Author.When), c.Subject)
	if c.Body != "" {
		head += c.Body + "\n"
	}
	return head + s.prof.Words.Say(render.DiffSummary(d)) + "\n\n" + cut(d.Diff, commitChars), nil
}

// activityText is the wiki's commits since a day.
func (s *Server) activityText(ctx context.Context, since string) (string, error) {
	t, err := s.day(since)
	if err != nil {
		return "", err
	}
	res, err := s.w.Activity(ctx, wiki.ActivityRequest{Since: t, Limit: activityLimit})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Commits since %s:\n", since) + s.prof.Words.Say(render.Activity(res)), nil
}

// activitySince returns the commits since a day, for the prompts.
func (s *Server) activitySince(ctx context.Context, since string) (*wiki.ActivityResult, error) {
	t, err := s.day(since)
	if err != nil {
		return nil, err
	}
	return s.w.Activity(ctx, wiki.ActivityRequest{Since: t, Limit: activityLimit})
}

// tagText is the notes with a tag.
func (s *Server) tagText(ctx context.Context, tag string) (string, error) {
	res, err := s.w.Search(ctx, wiki.SearchParams{Tags: []string{tag}, Sort: "modified", Limit: tagNotesLimit})
	if err != nil {
		return "", err
	}
	out := &tools.RecentOutput{Results: make([]tools.RecentNote, len(res.Results)), Total: res.Total}
	for i, h := range res.Results {
		out.Results[i] = tools.NewRecentNote(h)
	}
	return fmt.Sprintf("Notes tagged %s:\n", tag) + s.prof.Words.Say(tools.RecentText(out, "")), nil
}

// day reads a day, YYYY-MM-DD, as its start in the wiki's time zone.
func (s *Server) day(d string) (time.Time, error) {
	t, err := time.ParseInLocation(time.DateOnly, d, s.w.Options().Location)
	if err != nil {
		return time.Time{}, wiki.Errorf(wiki.CodeInvalidParams, "bad day %q", d).WithHint("give the day as YYYY-MM-DD")
	}
	return t, nil
}

// cut shortens s to at most n bytes, on a line boundary, saying so.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	if i := strings.LastIndexByte(s, '\n'); i > 0 {
		s = s[:i]
	}
	return s + truncatedNotice
}
