package wikid

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/tools"
	"github.com/wikid/wikid/internal/wiki"
)

// Resource URIs.
const (
	// noteURIPrefix starts the URI of a note: wiki://note/projects/alpha/plan,
	// with the path percent-encoded where URIs need it (a space is %20).
	noteURIPrefix = "wiki://note/"
	// recentURI is the list of recently changed notes.
	recentURI = "wiki://recent"
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
	recentLimit     = 20    // notes wiki://recent lists
	historyLimit    = 20    // commits a history lists
	historyDiffs    = 3     // latest changes a history shows the diff of
	noteDiffChars   = 4000  // of each such diff
	commitChars     = 12000 // of a commit's diff
	activityLimit   = 50    // commits an activity lists
	tagNotesLimit   = 50    // notes a tag lists
	truncatedNotice = "\n... [truncated]"
)

// resources are wikid's resources: a note, the recent changes, and what
// the prompts embed, each readable on its own.
func resources() []tool.Resource {
	// after reads what follows prefix in the URI, then hands it to read.
	after := func(prefix string, read func(context.Context, *wiki.Wiki, string) (string, error)) func(context.Context, *tool.Env, string) (string, error) {
		return func(ctx context.Context, env *tool.Env, uri string) (string, error) {
			v, err := uriPath(uri, prefix)
			if err != nil {
				return "", err
			}
			return read(ctx, env.Wiki, v)
		}
	}
	return []tool.Resource{
		{URI: noteURIPrefix + "{+path}", Template: true, Name: "note", MIME: "text/markdown", Group: tool.GroupNotes,
			Description: "A note's markdown, whole, frontmatter included: wiki://note/ then the note path " +
				"without extension, e.g. wiki://note/projects/alpha/plan.",
			Read: after(noteURIPrefix, noteText)},
		{URI: recentURI, Name: "recent changes", MIME: "text/plain", Group: tool.GroupSearch,
			Description: fmt.Sprintf("The %d most recently changed notes, newest first.", recentLimit),
			Read: func(ctx context.Context, env *tool.Env, _ string) (string, error) {
				return recentText(ctx, env.Wiki)
			}},
		{URI: historyURIPrefix + "{+path}", Template: true, Name: "note history", MIME: "text/plain", Group: tool.GroupHistory,
			Description: fmt.Sprintf("The commits that changed a note, newest first (at most %d), and the diffs of its %d latest changes: "+
				"wiki://history/ then the note path, e.g. wiki://history/projects/alpha/plan.", historyLimit, historyDiffs),
			Read: after(historyURIPrefix, historyText)},
		{URI: commitURIPrefix + "{rev}", Template: true, Name: "commit", MIME: "text/plain", Group: tool.GroupHistory,
			Description: "What a commit changed: its files and its diff. wiki://commit/ then a commit id (short or full), HEAD or HEAD~N.",
			Read:        after(commitURIPrefix, commitText)},
		{URI: activityURIPrefix + "{since}", Template: true, Name: "activity", MIME: "text/plain", Group: tool.GroupHistory,
			Description: fmt.Sprintf("The wiki's commits since a day, newest first (at most %d), with who made them and with which client and tool: "+
				"wiki://activity/ then the day as YYYY-MM-DD.", activityLimit),
			Read: after(activityURIPrefix, activityText)},
		{URI: tagURIPrefix + "{tag}", Template: true, Name: "tag", MIME: "text/plain", Group: tool.GroupSearch,
			Description: fmt.Sprintf("The notes with a tag (nested tags included), most recently changed first (at most %d): wiki://tag/ then the tag.", tagNotesLimit),
			Read:        after(tagURIPrefix, tagText)},
	}
}

// noteText is a note's markdown, whole.
func noteText(ctx context.Context, w *wiki.Wiki, notePath string) (string, error) {
	r, err := w.Read(ctx, wiki.ReadRequest{Path: notePath, MaxChars: int(w.Options().MaxNoteSize)})
	if err != nil {
		return "", err
	}
	return r.Content, nil
}

// recentText is the notes changed last.
func recentText(ctx context.Context, w *wiki.Wiki) (string, error) {
	return notesText(ctx, w, wiki.SearchParams{Sort: "modified", Limit: recentLimit})
}

// notesText lists the notes a search finds as recent_changes does.
func notesText(ctx context.Context, w *wiki.Wiki, p wiki.SearchParams) (string, error) {
	res, err := w.Search(ctx, p)
	if err != nil {
		return "", err
	}
	out := &tools.RecentOutput{Results: make([]tools.RecentNote, len(res.Results)), Total: res.Total}
	for i, h := range res.Results {
		out.Results[i] = tools.NewRecentNote(h)
	}
	return say(tools.RecentText(out, "")), nil
}

// historyText is a note's history and the diffs of its latest changes.
func historyText(ctx context.Context, w *wiki.Wiki, notePath string) (string, error) {
	res, err := w.History(ctx, wiki.HistoryRequest{Path: notePath, Limit: historyLimit})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(say(render.History(res)))
	for _, r := range res.Revisions[:min(historyDiffs, len(res.Revisions))] {
		d, err := w.Diff(ctx, wiki.DiffRequest{Path: r.Path, To: r.Commit})
		if err != nil {
			// A version missing from a partial clone: the list says enough.
			continue
		}
		fmt.Fprintf(&b, "\n\nChange %s, %s: %s\n%s", r.Short, render.Time(r.Date), r.Subject, cut(d.Diff, noteDiffChars))
	}
	return b.String(), nil
}

// commitText is what a commit changed: its message, files and diff.
func commitText(ctx context.Context, w *wiki.Wiki, rev string) (string, error) {
	c, err := w.Commit(ctx, rev)
	if err != nil {
		return "", err
	}
	d, err := w.Diff(ctx, wiki.DiffRequest{To: c.ID})
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
	return head + say(render.DiffSummary(d)) + "\n\n" + cut(d.Diff, commitChars), nil
}

// activityText is the wiki's commits since a day.
func activityText(ctx context.Context, w *wiki.Wiki, since string) (string, error) {
	res, err := activitySince(ctx, w, since)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Commits since %s:\n", since) + say(render.Activity(res)), nil
}

// activitySince returns the commits since a day.
func activitySince(ctx context.Context, w *wiki.Wiki, since string) (*wiki.ActivityResult, error) {
	t, err := day(w, since)
	if err != nil {
		return nil, err
	}
	return w.Activity(ctx, wiki.ActivityRequest{Since: t, Limit: activityLimit})
}

// tagText is the notes with a tag.
func tagText(ctx context.Context, w *wiki.Wiki, tag string) (string, error) {
	t, err := notesText(ctx, w, wiki.SearchParams{Tags: []string{tag}, Sort: "modified", Limit: tagNotesLimit})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Notes tagged %s:\n", tag) + t, nil
}

// day reads a day, YYYY-MM-DD, as its start in the wiki's time zone.
func day(w *wiki.Wiki, d string) (time.Time, error) {
	t, err := time.ParseInLocation(time.DateOnly, d, w.Options().Location)
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

// uriPath returns what follows prefix in uri, percent-decoded: a note
// path, say.
func uriPath(uri, prefix string) (string, error) {
	raw, ok := strings.CutPrefix(uri, prefix)
	if !ok {
		return "", fmt.Errorf("%w: %s, want %s then a value", tool.ErrBadURI, uri, prefix)
	}
	p, err := url.PathUnescape(raw)
	if err != nil || p == "" {
		return "", fmt.Errorf("%w: %s, want %s then a value", tool.ErrBadURI, uri, prefix)
	}
	return p, nil
}

// noteURI is the URI of a note.
func noteURI(notePath string) string { return noteURIPrefix + escapePath(notePath) }

// escapePath percent-encodes a path for a URI, keeping its slashes.
func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}
