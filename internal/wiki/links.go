package wiki

import (
	"context"
	"errors"
	"strings"

	"github.com/wikid/wikid/internal/note"
)

// Limits of the link queries.
const (
	DefaultLinksLimit = 20
	MaxLinksLimit     = 200
	MaxLinksDepth     = 5
	DefaultPathDepth  = 10
	MaxPathDepth      = 50
	DefaultHubsLimit  = 10
	MaxHubsLimit      = 100
	// NeighborChars is how many characters of a neighbor's text a links
	// query includes when asked for content.
	NeighborChars = 200
)

// LinksRequest asks for the links around a note.
type LinksRequest struct {
	Path string
	// Direction is in (links to the note), out (its own links) or both
	// (the default).
	Direction Direction
	// Depth is how many links away neighbors are listed; default 1.
	Depth int
	// Limit caps each list: incoming notes, outgoing links and the notes
	// of each level; default DefaultLinksLimit.
	Limit int
	// IncludeContent adds the start of each neighbor's text.
	IncludeContent bool
}

// LinksResult is the link graph around a note.
type LinksResult struct {
	Path  string
	Title string
	// Exists is false for a path without a note: Incoming then lists the
	// notes whose links still name it.
	Exists bool
	// Incoming holds the notes that link to it, with each link's line and
	// context; IncomingTotal counts them all.
	Incoming      []Backlink
	IncomingTotal int
	// Outgoing holds its links in order, with what they resolve to.
	Outgoing      []OutLink
	OutgoingTotal int
	// Neighbors holds the notes at each distance from 1 to Depth.
	Neighbors []NeighborLevel
}

// links returns a note's backlinks, outgoing links and neighbors from the
// link graph at HEAD, which it first brings up to date. A path without a
// note is not an error: the result says so and lists who links to it. It
// returns INVALID_PATH, INVALID_PARAMS (a bad direction, depth or limit)
// and AMBIGUOUS (the path matches several notes that differ in case).
func (w *Wiki) links(ctx context.Context, req LinksRequest) (*LinksResult, error) {
	dir, err := direction(req.Direction, DirBoth)
	if err != nil {
		return nil, err
	}
	depth, err := bounded("depth", req.Depth, 1, MaxLinksDepth)
	if err != nil {
		return nil, err
	}
	limit, err := bounded("limit", req.Limit, DefaultLinksLimit, MaxLinksLimit)
	if err != nil {
		return nil, err
	}
	snap, notePath, found, err := w.findNote(ctx, req.Path)
	if err != nil {
		return nil, err
	}
	g, err := w.graphAt(ctx)
	if err != nil {
		return nil, err
	}
	res := &LinksResult{Path: notePath, Incoming: []Backlink{}, Outgoing: []OutLink{}, Neighbors: []NeighborLevel{}}
	if ref, ok := g.Lookup(notePath); ok && found {
		res.Exists, res.Title = true, ref.Title
	}
	if dir != DirOut {
		in := g.BacklinksLined(notePath, limit)
		res.IncomingTotal = len(in)
		res.Incoming = in[:min(len(in), limit)]
	}
	if !res.Exists {
		return res, nil
	}
	if dir != DirIn {
		out := g.Outlinks(notePath)
		res.OutgoingTotal = len(out)
		res.Outgoing = out[:min(len(out), limit)]
	}
	res.Neighbors = g.Neighbors(notePath, dir, depth, limit)
	if res.Neighbors == nil {
		res.Neighbors = []NeighborLevel{}
	}
	if req.IncludeContent {
		for i := range res.Neighbors {
			for j := range res.Neighbors[i].Notes {
				n := &res.Neighbors[i].Notes[j]
				n.Content, n.Truncated = w.excerpt(ctx, snap, n.Path)
			}
		}
	}
	return res, nil
}

// excerpt returns the start of a note's text after its frontmatter, and
// whether it was cut; "" when it cannot be read.
func (w *Wiki) excerpt(ctx context.Context, snap Snapshot, notePath string) (string, bool) {
	_, n, err := w.readNote(ctx, snap, notePath, "")
	if err != nil {
		return "", false
	}
	body := []byte(strings.TrimSpace(string(n.Raw[n.BodyStart:])))
	text, _, _, cut := window(body, 0, NeighborChars)
	return text, cut
}

// findNote locates a caller's note path at HEAD: the note's exact path and
// true, or the cleaned path and false when no note has it.
func (w *Wiki) findNote(ctx context.Context, path string) (Snapshot, string, bool, error) {
	notePath, ext, err := note.CleanPath(path)
	if err != nil {
		return nil, "", false, err
	}
	_, snap, err := w.head(ctx)
	if err != nil {
		return nil, "", false, err
	}
	f, err := w.locate(ctx, snap, notePath, ext)
	switch {
	case errors.Is(err, ErrNotFound):
		return snap, notePath, false, nil
	case err != nil:
		return nil, "", false, err
	}
	return snap, notePathOf(f.Path), true, nil
}

// PathRequest asks for a shortest chain of links between two notes.
type PathRequest struct {
	Source, Target string
	// Direction is out (follow links as written, the default), in
	// (backwards) or both.
	Direction Direction
	// MaxDepth is the most links the chain may have; default
	// DefaultPathDepth.
	MaxDepth int
}

// PathResult is a shortest chain of notes, source and target included.
type PathResult struct {
	Found bool
	Path  []NoteRef
	// Length counts the links: len(Path) - 1.
	Length int
}

// FindPath returns a shortest chain of links from one note to another. No
// chain is not an error: Found is false. It returns INVALID_PATH,
// INVALID_PARAMS (a bad direction or depth), NOT_FOUND (a note does not
// exist) and AMBIGUOUS.
func (w *Wiki) FindPath(ctx context.Context, req PathRequest) (*PathResult, error) {
	dir, err := direction(req.Direction, DirOut)
	if err != nil {
		return nil, err
	}
	depth, err := bounded("max_depth", req.MaxDepth, DefaultPathDepth, MaxPathDepth)
	if err != nil {
		return nil, err
	}
	var ends [2]string
	for i, p := range []string{req.Source, req.Target} {
		_, notePath, found, err := w.findNote(ctx, p)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, Errorf(CodeNotFound, "no note %q", notePath).
				WithHint("check the path with {list} or {resolve}")
		}
		ends[i] = notePath
	}
	g, err := w.graphAt(ctx)
	if err != nil {
		return nil, err
	}
	res := &PathResult{Path: g.ShortestPath(ends[0], ends[1], dir, depth)}
	if res.Path == nil {
		res.Path = []NoteRef{}
		return res, nil
	}
	res.Found, res.Length = true, len(res.Path)-1
	return res, nil
}

// HubsRequest asks for the most connected notes.
type HubsRequest struct {
	// Metric is in_degree (the default), out_degree or pagerank.
	Metric HubMetric
	// Folder restricts the notes ranked; "" for all.
	Folder string
	Limit  int
}

// HubsResult is the best-ranked notes, best first.
type HubsResult struct {
	Metric HubMetric
	Hubs   []Hub
}

// Hubs ranks notes by a metric from the link graph at HEAD, ties by path.
// It returns INVALID_PARAMS (an unknown metric, a bad limit) and
// INVALID_PATH (a bad folder).
func (w *Wiki) Hubs(ctx context.Context, req HubsRequest) (*HubsResult, error) {
	switch req.Metric {
	case "":
		req.Metric = HubInDegree
	case HubInDegree, HubOutDegree, HubPageRank:
	default:
		return nil, Errorf(CodeInvalidParams, "unknown metric %q", req.Metric).
			WithHint("use in_degree, out_degree or pagerank")
	}
	limit, err := bounded("limit", req.Limit, DefaultHubsLimit, MaxHubsLimit)
	if err != nil {
		return nil, err
	}
	folder, err := note.CleanFolder(req.Folder)
	if err != nil {
		return nil, err
	}
	g, err := w.graphAt(ctx)
	if err != nil {
		return nil, err
	}
	hubs := g.Hubs(req.Metric, folder, limit)
	if hubs == nil {
		hubs = []Hub{}
	}
	return &HubsResult{Metric: req.Metric, Hubs: hubs}, nil
}

// direction checks a requested direction, def when empty.
func direction(d, def Direction) (Direction, error) {
	switch d {
	case "":
		return def, nil
	case DirIn, DirOut, DirBoth:
		return d, nil
	}
	return "", Errorf(CodeInvalidParams, "unknown direction %q", d).
		WithHint("use in, out or both")
}

// bounded applies a default (for 0) and a maximum to a positive integer
// parameter.
func bounded(name string, v, def, max int) (int, error) {
	switch {
	case v < 0:
		return 0, Errorf(CodeInvalidParams, "%s %d is negative", name, v).
			WithHint("use a %s from 1 to %d, or leave it out for %d", name, max, def)
	case v == 0:
		return def, nil
	case v > max:
		return 0, Errorf(CodeInvalidParams, "%s %d is over the limit of %d", name, v, max).
			WithHint("use a %s from 1 to %d", name, max)
	}
	return v, nil
}
