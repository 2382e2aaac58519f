package wiki

import (
	"context"
	"errors"
	"path"
	"strings"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/textdiff"
)

// A proposing session's reads beyond read and list see its proposal on
// top too (ForCaller). The derived stores (search index, link graph,
// history index) stay at HEAD, for every session; what the proposal
// changes is laid over their answers from the few notes it changed,
// read from the proposal's view:
//
//   - search drops the hits of the notes the proposal changed and, on a
//     search's first page, puts first the hits of a scratch index of the
//     proposal's notes as they are in it, kept per proposal tip (the total
//     counts them; hits of a changed note on later pages of the index are
//     dropped, not moved);
//   - links drop the backlinks written in the notes the proposal changed
//     and add those its notes write, and a note the proposal changed or
//     made has its outgoing links as the proposal has them;
//   - history puts the proposal's commits of the note first, on the first
//     page, and a note the proposal made has a history of them alone.
//
// gather_context reads through the view already, and finds the
// proposal's notes through search. Other sessions see none of it.

// viewed returns the open state of the proposal ctx reads through, nil
// when it reads through none (or the proposal has no open note).
func (w *Wiki) viewed(ctx context.Context) (*proposalState, error) {
	id, ok := ctx.Value(proposalViewKey{}).(string)
	if !ok {
		return nil, nil
	}
	tip, err := w.proposalTip(ctx, id)
	if err != nil || tip == "" {
		return nil, err
	}
	st, err := w.proposalState(ctx, id, tip)
	if err != nil || len(st.open()) == 0 {
		return nil, err
	}
	return st, nil
}

// viewedNotes returns the notes the proposal ctx reads through changed,
// by note path with their file, its state and the view; nil when there
// is none.
func (w *Wiki) viewedNotes(ctx context.Context) (*proposalState, map[string]string, Snapshot, error) {
	st, err := w.viewed(ctx)
	if err != nil || st == nil {
		return nil, nil, nil, err
	}
	_, view, err := w.head(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	notes := map[string]string{}
	for _, pf := range st.open() {
		if p, _, ok := note.SplitFileName(pf.file); ok {
			notes[p] = pf.file
		}
	}
	return st, notes, view, nil
}

// searchProposal lays the proposal ctx reads through over a text search's
// result.
func (w *Wiki) searchProposal(ctx context.Context, req SearchRequest, res *SearchResult) (*SearchResult, error) {
	st, notes, view, err := w.viewedNotes(ctx)
	if err != nil || notes == nil {
		return res, err
	}
	kept := res.Results[:0:0]
	for _, h := range res.Results {
		if _, changed := notes[h.Path]; !changed {
			kept = append(kept, h)
		}
	}
	res.Total -= len(res.Results) - len(kept)
	if req.Cursor == "" {
		sub := req
		sub.Cursor = ""
		mine, err := w.proposalSearch(ctx, st, sub, notes, view)
		if err != nil {
			return nil, err
		}
		kept = append(mine.Results, kept...)
		res.Total += mine.Total
	}
	res.Results = kept
	return res, nil
}

// Links returns a note's backlinks, outgoing links and neighbors (see
// links); a proposing session sees its proposal's links on top.
func (w *Wiki) Links(ctx context.Context, req LinksRequest) (*LinksResult, error) {
	res, err := w.links(ctx, req)
	if err != nil {
		return nil, err
	}
	_, notes, view, err := w.viewedNotes(ctx)
	if err != nil || notes == nil {
		return res, err
	}
	g, err := w.graphAt(ctx)
	if err != nil {
		return nil, err
	}
	dir, _ := direction(req.Direction, DirBoth)
	limit, _ := bounded("limit", req.Limit, DefaultLinksLimit, MaxLinksLimit)
	parsed := map[string]*note.Note{}
	for p, file := range notes {
		if _, content, err := view.Read(ctx, file); err == nil {
			parsed[p] = note.ParseIn(p, content, w.opts.Location)
		} else if !errors.Is(err, ErrNotFound) {
			return nil, err
		}
	}
	if n := parsed[res.Path]; n != nil {
		res.Exists, res.Title = true, n.Title
	} else if _, changed := notes[res.Path]; changed {
		res.Exists, res.Title = false, "" // the proposal deletes it
	}
	if dir != DirOut {
		in := res.Incoming[:0:0]
		for _, b := range res.Incoming {
			if _, changed := notes[b.Path]; !changed {
				in = append(in, b)
			}
		}
		dropped := len(res.Incoming) - len(in)
		var mine []Backlink
		for p, n := range parsed {
			b := Backlink{Path: p, Title: n.Title}
			for _, l := range n.Links {
				if p != res.Path && linksTo(g, p, l, res.Path) {
					b.Links = append(b.Links, linkSite(n, l))
				}
			}
			if len(b.Links) > 0 {
				mine = append(mine, b)
			}
		}
		res.Incoming = append(mine, in...)
		res.Incoming = res.Incoming[:min(len(res.Incoming), limit)]
		res.IncomingTotal += len(mine) - dropped
	}
	if _, changed := notes[res.Path]; changed && dir != DirIn {
		res.Outgoing = []OutLink{}
		if n := parsed[res.Path]; n != nil {
			for _, l := range n.Links {
				o := OutLink{LinkSite: linkSite(n, l)}
				if ref, ok := resolveIn(g, parsed, res.Path, l); ok {
					o.Path, o.Title = ref.Path, ref.Title
				} else {
					o.Broken = "no note of that name"
				}
				res.Outgoing = append(res.Outgoing, o)
			}
		}
		res.OutgoingTotal = len(res.Outgoing)
		res.Outgoing = res.Outgoing[:min(len(res.Outgoing), limit)]
	}
	return res, nil
}

// linkSite is a parsed link where it sits.
func linkSite(n *note.Note, l note.Link) LinkSite {
	s := LinkSite{Line: l.Line, Kind: string(l.Kind), Target: l.Target, Heading: l.Heading}
	lines := strings.Split(string(n.Raw), "\n")
	if l.Line >= 1 && l.Line <= len(lines) {
		s.Context = strings.TrimSpace(lines[l.Line-1])
		if len(s.Context) > 200 {
			s.Context = s.Context[:200]
		}
	}
	return s
}

// linksTo reports whether link l, written in note from, names the note at
// target: as the graph resolves it, or, for a note the graph does not
// know (the proposal made it), by its path or its name.
func linksTo(g Graph, from string, l note.Link, target string) bool {
	if l.Kind != note.LinkMarkdown && l.Target != "" {
		if ref, ok := g.ResolveName(l.Target); ok {
			return ref.Path == target
		}
	}
	return namesNote(from, l, target)
}

// namesNote reports whether link l, written in note from, names the note
// at target by its path (relative, for a markdown link) or its name.
func namesNote(from string, l note.Link, target string) bool {
	if l.Target == "" {
		return false
	}
	if l.Kind == note.LinkMarkdown {
		return strings.EqualFold(strings.TrimSuffix(path.Join(path.Dir(from), l.Target), ".md"), target)
	}
	name := strings.ToLower(strings.TrimSuffix(l.Target, ".md"))
	return name == strings.ToLower(target) || name == strings.ToLower(path.Base(target))
}

// resolveIn resolves link l of note from among the proposal's notes, then
// the graph's.
func resolveIn(g Graph, parsed map[string]*note.Note, from string, l note.Link) (NoteRef, bool) {
	for p, n := range parsed {
		if namesNote(from, l, p) {
			return NoteRef{Path: p, Title: n.Title}, true
		}
	}
	if l.Kind == note.LinkMarkdown {
		return g.Lookup(strings.TrimSuffix(path.Join(path.Dir(from), l.Target), ".md"))
	}
	return g.ResolveName(l.Target)
}

// History returns a note's commits (see history); a proposing session
// sees its proposal's commits of the note first.
func (w *Wiki) History(ctx context.Context, req HistoryRequest) (*HistoryResult, error) {
	res, err := w.history(ctx, req)
	st, verr := w.viewed(ctx)
	if verr != nil {
		return nil, verr
	}
	if st == nil || req.Cursor != "" {
		return res, err
	}
	notePath, _, perr := note.CleanPath(req.Path)
	if perr != nil {
		return res, err
	}
	file := ""
	for _, pf := range st.open() {
		if p, _, ok := note.SplitFileName(pf.file); ok && strings.EqualFold(p, notePath) {
			file = pf.file
		}
	}
	if file == "" {
		return res, err
	}
	if err != nil {
		if CodeOf(err) != CodeNotFound {
			return nil, err
		}
		res = &HistoryResult{Path: notePathOf(file), File: file, Revisions: []HistoryEntry{}}
	}
	commits, err := w.proposalSince(ctx, st.id, st.tip, "")
	if err != nil {
		return nil, err
	}
	var mine []HistoryEntry
	for _, c := range commits {
		if isDecision(c) || len(c.Parents) == 0 {
			continue
		}
		e, ok, err := w.proposalEntry(ctx, c, file)
		if err != nil {
			return nil, err
		}
		if ok {
			mine = append([]HistoryEntry{e}, mine...)
		}
	}
	_, view, err := w.head(ctx)
	if err != nil {
		return nil, err
	}
	_, verr = view.Stat(ctx, file)
	res.Exists = verr == nil
	res.Revisions = append(mine, res.Revisions...)
	res.Total += len(mine)
	return res, nil
}

// proposalEntry is the history entry of a proposal's commit c for file;
// ok is false when c did not change it.
func (w *Wiki) proposalEntry(ctx context.Context, c CommitInfo, file string) (HistoryEntry, bool, error) {
	changes, err := w.store.Changes(ctx, c.Parents[0], c.ID)
	if err != nil {
		return HistoryEntry{}, false, err
	}
	for _, ch := range changes {
		if ch.Path != file {
			continue
		}
		e := HistoryEntry{Commit: c.ID, Short: shortID(c.ID), Date: c.Author.When, Author: who(c.Author),
			Subject: strings.SplitN(c.Message, "\n", 2)[0], Path: notePathOf(file), Version: ch.NewBlob, Change: ChangeModified}
		switch {
		case ch.Delete:
			e.Change = ChangeDeleted
		case ch.OldBlob == "":
			e.Change = ChangeAdded
		}
		if v := trailerValues(c.Message, "Wiki-Tool"); len(v) > 0 {
			e.Tool = v[0]
		}
		if v := trailerValues(c.Message, "Wiki-Client"); len(v) > 0 {
			e.Client = v[0]
		}
		var old, cur []byte
		if ch.OldBlob != "" {
			if s, err := w.store.Snapshot(ctx, c.Parents[0]); err == nil {
				_, old, _ = s.Read(ctx, file)
			}
		}
		if !ch.Delete {
			if s, err := w.store.Snapshot(ctx, c.ID); err == nil {
				_, cur, _ = s.Read(ctx, file)
			}
		}
		n := textdiff.Count(old, cur)
		e.Additions, e.Deletions = n.Additions, n.Deletions
		return e, true, nil
	}
	return HistoryEntry{}, false, nil
}
