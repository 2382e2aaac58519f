package web

import (
	"bytes"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/wikid/wikid/internal/imaging"
	"github.com/wikid/wikid/internal/wiki"
)

// markdown renders notes: GitHub-flavoured markdown (tables, task lists,
// strikethrough, autolinks), raw HTML left out (goldmark's default), so a
// note cannot put script or markup of its own on the page.
var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

// notePage is a note as people read it: its properties, the rendered
// body, its backlinks and its history.
type notePage struct {
	Note       *wiki.ReadResult
	Properties [][2]string
	HTML       template.HTML
	Backlinks  []wiki.Backlink
	History    []historyRow
	// Version is the commit shown, "" for the note as it is now; Diff the
	// change between two versions when asked for one.
	Version string
	// Deleted is the commit that deleted the note, when the page shows a
	// note HEAD no longer has: its last version, Version, before that.
	Deleted *wiki.HistoryEntry
	Blame   []blameRun
	// BlameDigits is how many digits the blame's line numbers take, so
	// that every run's text starts at one column.
	BlameDigits int
	Diff        []fileDiff
	From, To    string
	CSRF        string
	ReadOnly    bool
	Map         *linkMap // the note among its neighbours, drawn in linkmap.go
}

// wikiLink matches [[Target]], [[Target|label]], [[Target#Heading]] and
// their embeds ![[...]].
var wikiLink = regexp.MustCompile(`(!?)\[\[([^\]|#]*)(#[^\]|]*)?(?:\|([^\]]*))?\]\]`)

// note serves a note's page.
func (h *Handler) note(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q := r.URL.Query()
	version := q.Get("version")
	res, err := h.w.Read(ctx, wiki.ReadRequest{Path: r.PathValue("path"), Version: version, MaxChars: int(h.w.Options().MaxNoteSize)})
	var deleted *wiki.HistoryEntry
	if e := (*wiki.Error)(nil); errors.As(err, &e) && e.Code == wiki.CodeNotFound && version == "" {
		// A note HEAD no longer has: its last version, if it was deleted.
		if d, last, ok := h.deletedNote(r, r.PathValue("path")); ok {
			res, err, deleted, version = last, nil, d, last.Commit
		}
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	links, err := h.w.Links(ctx, wiki.LinksRequest{Path: res.Path, Direction: wiki.DirBoth, Limit: 200})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	hist, err := h.w.History(ctx, wiki.HistoryRequest{Path: res.Path, Limit: 20})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	// Each link as written resolves as the wiki resolves it.
	resolved := map[string]string{}
	for _, l := range links.Outgoing {
		if l.Path != "" {
			resolved[l.Target] = l.Path
		}
	}
	if deleted != nil {
		// The graph has no links of a deleted note: resolve its own.
		resolved = h.resolveLinks(r, res.Content)
	}
	body := res.Content[res.BodyStart:]
	body = wikiLink.ReplaceAllStringFunc(body, func(m string) string {
		g := wikiLink.FindStringSubmatch(m)
		embed, target, heading, label := g[1] == "!", strings.TrimSpace(g[2]), g[3], g[4]
		if label == "" {
			label = target + strings.ReplaceAll(heading, "#", " › ")
		}
		p, ok := resolved[target]
		switch {
		case !ok:
			return label + " (missing)"
		case embed && imaging.TypeOf(p) != "":
			return "![" + escapeMD(label) + "](/file/" + pathURL(p) + ")"
		}
		return "[" + escapeMD(label) + "](/note/" + pathURL(p) + ")"
	})
	var out bytes.Buffer
	if err := markdown.Convert([]byte(body), &out); err != nil {
		h.fail(w, r, err)
		return
	}
	html := callouts(out.String())
	// The page's heading is the title: a first heading that says the same
	// is not shown twice.
	html = strings.TrimPrefix(html, "<h1>"+template.HTMLEscapeString(res.Title)+"</h1>\n")
	page := notePage{Note: res, HTML: template.HTML(html), Backlinks: links.Incoming,
		Version: version, Deleted: deleted, CSRF: h.csrf(r), ReadOnly: h.opts.ReadOnly}
	page.Map = newLinkMap(res.Path, res.Title, links) // nil for a deleted note: the graph has none
	for i, e := range hist.Revisions {
		row := historyRow{HistoryEntry: e, Latest: i == 0}
		if i+1 < len(hist.Revisions) {
			row.Before = hist.Revisions[i+1].Commit
		}
		page.History = append(page.History, row)
	}
	if q.Get("blame") != "" && version == "" {
		b, err := h.w.Blame(ctx, wiki.BlameRequest{Path: res.Path})
		if err != nil {
			h.fail(w, r, err)
			return
		}
		page.Blame = blameRuns(res.Content, b)
		page.BlameDigits = len(strconv.Itoa(strings.Count(res.Content, "\n") + 1))
	}
	if from, to := q.Get("from"), q.Get("to"); from != "" || to != "" {
		d, err := h.w.Diff(ctx, wiki.DiffRequest{Path: res.Path, From: from, To: to})
		if err != nil {
			h.fail(w, r, err)
			return
		}
		page.Diff, page.From, page.To = fileDiffs(d.Files), d.From, d.To
	}
	for _, k := range sortedKeys(res.Properties) {
		page.Properties = append(page.Properties, [2]string{k, propertyText(res.Properties[k])})
	}
	h.render(w, r, "note.html", page)
}

// deletedNote finds the commit that deleted the note at path and reads the
// note's last version before it; false when the note was not deleted or
// cannot be read.
func (h *Handler) deletedNote(r *http.Request, path string) (*wiki.HistoryEntry, *wiki.ReadResult, bool) {
	ctx := r.Context()
	hist, err := h.w.History(ctx, wiki.HistoryRequest{Path: path, Limit: 1})
	if err != nil || hist.Exists || len(hist.Revisions) == 0 || hist.Revisions[0].Change != wiki.ChangeDeleted {
		return nil, nil, false
	}
	d := hist.Revisions[0]
	last, err := h.w.Read(ctx, wiki.ReadRequest{Path: hist.File, Version: d.Commit + "~1", MaxChars: int(h.w.Options().MaxNoteSize)})
	if err != nil || last.Commit == "" {
		h.opts.Logger.WarnContext(ctx, "read a deleted note's last version", "path", path, "err", err)
		return nil, nil, false
	}
	return &d, last, true
}

// resolveLinks resolves the wiki links of content as links at the root
// resolve among the notes at HEAD, for a note the link graph does not
// hold: by the graph's tables of names, without reading any note.
func (h *Handler) resolveLinks(r *http.Request, content string) map[string]string {
	out := map[string]string{}
	var names []string
	for _, m := range wikiLink.FindAllStringSubmatch(content, wiki.MaxResolveNames) {
		if t := strings.TrimSpace(m[2]); t != "" && !slices.Contains(names, t) {
			names = append(names, t)
		}
	}
	if len(names) == 0 {
		return out
	}
	res, err := h.w.Resolve(r.Context(), wiki.ResolveRequest{Names: names, Strategy: wiki.ResolveLink})
	if err != nil {
		return out
	}
	for _, n := range res.Results {
		if len(n.Matches) > 0 {
			out[n.Name] = n.Matches[0].Path
		}
	}
	return out
}

// file serves an image of the wiki, for the notes that embed it.
func (h *Handler) file(w http.ResponseWriter, r *http.Request) {
	p := r.PathValue("path")
	mime := imaging.TypeOf(p)
	if mime == "" || mime == "image/svg+xml" {
		// Only raster images: an SVG could carry script.
		h.fail(w, r, wiki.Errorf(wiki.CodeNotFound, "no image %q", p))
		return
	}
	f, err := h.w.ReadFile(r.Context(), p)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", mime)
	w.Header().Set("Cache-Control", "private, max-age=60")
	_, _ = w.Write(f.Content)
}

func pathURL(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

func escapeMD(s string) string {
	return strings.NewReplacer(`[`, `\[`, `]`, `\]`).Replace(s)
}

// restorePage previews bringing back a version of a note.
type restorePage struct {
	Path, Version, Summary, Risk, CSRF string
	// Short is the version as the title names it: a commit id's first 7.
	Short string
	Files []fileDiff
	// Reviewer is who the restore would be by; NoReviewer, why nobody.
	Reviewer, NoReviewer string
}

// restore previews bringing back a note's version as a diff, with a button
// to make it; with confirm set, it makes it, as one commit by the reviewer
// through the same core as restore_note, its Wiki-Tool the page's own
// action.
func (h *Handler) restore(w http.ResponseWriter, r *http.Request) {
	if h.opts.ReadOnly {
		h.refuse(w, r, http.StatusForbidden, "this wiki is served read-only: nothing can be restored")
		return
	}
	path, version := r.PathValue("path"), r.PostFormValue("version")
	confirm := r.PostFormValue("confirm") == "yes"
	caller := wiki.Caller{Client: client, Tool: toolRestore}
	if confirm {
		var ok bool
		if caller.Author, ok = h.actor(w, r); !ok {
			return
		}
	}
	m := wiki.Mutation{DryRun: !confirm, Caller: caller, Committer: caller.Author} // the reviewer commits too
	res, err := h.w.Restore(r.Context(), wiki.RestoreRequest{Path: path, Version: version, Mutation: m})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if confirm {
		target := "/note/" + pathURL(path)
		if res.Commit != "" {
			target = "/commit/" + res.Commit
		}
		http.Redirect(w, r, target, http.StatusSeeOther)
		return
	}
	page := restorePage{Path: path, Version: version, Short: shortVersion(version), Summary: res.Summary, Risk: res.Risk,
		CSRF: h.csrf(r), Files: fileDiffs(res.Files)}
	page.Reviewer, page.NoReviewer = h.reviewerLine()
	h.render(w, r, "restore.html", page)
}

// blameRun is a run of lines of a note last changed by one commit, and
// the assistant that made it (its Wiki-Client trailer), if one did.
type blameRun struct {
	Entry  wiki.BlameEntry
	Client string
	Lines  []blameLine
}

// blameLine is a line of a note and its number.
type blameLine struct {
	N    int
	Text string
}

// blameRuns pairs the runs of a blame with the note's lines.
func blameRuns(content string, b *wiki.BlameResult) []blameRun {
	lines := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	var out []blameRun
	for _, e := range b.Ranges {
		if e.Start < 1 || e.End > len(lines) || e.Start > e.End {
			continue
		}
		run := blameRun{Entry: e, Client: e.Client}
		for n := e.Start; n <= e.End; n++ {
			run.Lines = append(run.Lines, blameLine{N: n, Text: lines[n-1]})
		}
		out = append(out, run)
	}
	return out
}

// historyRow is a version of a note in its history, with the version
// before it (for the diff of what it changed).
type historyRow struct {
	wiki.HistoryEntry
	Before string
	Latest bool
}

// shortVersion is a version as people read it: a commit id's first 7
// characters, any other revision as written.
func shortVersion(v string) string {
	if len(v) == 40 && strings.Trim(v, "0123456789abcdef") == "" {
		return v[:7]
	}
	return v
}
