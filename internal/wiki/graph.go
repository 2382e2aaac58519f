package wiki

import "context"

// Graph is the link graph of the notes at one commit: derived state held in
// memory, built from the files of a commit and patched with the files each
// later commit changes. As a DerivedStore it follows HEAD; an Apply is
// atomic (a query sees the state before or after, never between). Paths
// given to its queries are note paths matched exactly; the wiki locates
// notes first. Implementations are safe for concurrent use.
type Graph interface {
	DerivedStore
	// Len returns the number of notes.
	Len() int
	// Lookup returns the note at a note path.
	Lookup(notePath string) (NoteRef, bool)
	// ResolveName resolves a name as a link written in a note at the root
	// would, by the graph's LinkResolution.
	ResolveName(name string) (NoteRef, bool)
	// Named returns the notes whose whole note path, title or an alias is
	// name, ignoring case, each once with what matched (MatchedByPath,
	// MatchedByTitle, MatchedByAlias, the first that does) and Score 1.
	Named(name string) []NameMatch
	// Backlinks returns the notes that link to the note path, by path, with
	// the links in each. For a path without a note it returns the notes
	// whose unresolved links name that path.
	Backlinks(notePath string) []Backlink
	// BacklinksLined is Backlinks with the lines links sit on (Context)
	// for the links of the first n notes only, all when n is negative: a
	// note's lines cost a read of the note.
	BacklinksLined(notePath string, n int) []Backlink
	// Outlinks returns the links of a note in the order they are written.
	Outlinks(notePath string) []OutLink
	// Neighbors returns the notes at each distance from 1 to depth,
	// following links in the direction given, at most limit per distance.
	Neighbors(notePath string, dir Direction, depth, limit int) []NeighborLevel
	// ShortestPath returns a shortest chain of notes from one note to
	// another, both included, at most maxDepth links long; nil when there
	// is none.
	ShortestPath(from, to string, dir Direction, maxDepth int) []NoteRef
	// Hubs returns the notes under folder ("" for all) with the highest
	// score for metric, at most limit, best first.
	Hubs(metric HubMetric, folder string, limit int) []Hub
	// BrokenLinks returns the links of the notes under folder that resolve
	// to nothing or name a missing heading, by note path and line.
	BrokenLinks(folder string) []BrokenLink
	// BrokenLinksPage is BrokenLinks with the lines links sit on
	// (Context) only for those that page chooses, as [from, to), from the
	// whole list: a line costs a read of its note.
	BrokenLinksPage(folder string, page func(all []BrokenLink) (from, to int)) []BrokenLink
	// Orphans returns the notes under folder that no other note links to,
	// by path.
	Orphans(folder string) []NoteRef
	// AmbiguousLinks returns the links of the notes under folder whose bare
	// name names several notes or files, with the one chosen, by note path
	// and line.
	AmbiguousLinks(folder string) []AmbiguousLink
	// LinkedNotes returns the paths of the notes that link to the note a
	// name resolves to (dir In), or that it links to (dir Out). With prefix,
	// name is the start of note paths, and the notes of all of them count.
	LinkedNotes(name string, dir Direction, prefix bool) []string
	// Resolution says how wiki links resolve: as Obsidian resolves them,
	// or also by title and alias.
	Resolution() LinkResolution
	// Relinks returns the links that a change of note paths would break:
	// moves maps note paths to their new paths, or to "" for a deleted note.
	// The result lists, per linking note, each link whose written target
	// would no longer resolve to the note it resolves to now (or to that
	// note's new path), with the text that would.
	Relinks(moves map[string]string) []Relink
}

// LinkResolution says how a wiki link ([[target]], ![[target]]) finds its
// note or file; markdown links are relative paths either way.
type LinkResolution string

// Link resolutions.
const (
	// ResolveObsidian resolves as Obsidian does: by file name anywhere in
	// the repository, or by the end of the path for a target with folders;
	// never by a title or an alias.
	ResolveObsidian LinkResolution = "obsidian"
	// ResolveWiki resolves by path, then title, then alias.
	ResolveWiki LinkResolution = "wiki"
)

// Direction says which links to follow from a note: the links to it (in),
// its own links (out) or both.
type Direction string

// Directions.
const (
	DirIn   Direction = "in"
	DirOut  Direction = "out"
	DirBoth Direction = "both"
)

// HubMetric ranks notes in Hubs.
type HubMetric string

// Hub metrics.
const (
	// HubInDegree counts the other notes that link to a note.
	HubInDegree HubMetric = "in_degree"
	// HubOutDegree counts the other notes a note links to.
	HubOutDegree HubMetric = "out_degree"
	// HubPageRank is the note's PageRank (damping 0.85) over the links
	// between notes; the scores of all notes sum to 1.
	HubPageRank HubMetric = "pagerank"
)

// NoteRef names a note.
type NoteRef struct {
	Path  string
	Title string
}

// LinkSite is one link as written in a note.
type LinkSite struct {
	Line int
	// Kind is wiki, embed or markdown.
	Kind string
	// Target is the target as written, without heading or label.
	Target  string
	Heading string
	// Context is the line the link sits on, trimmed, at most about 200
	// characters around the link.
	Context string
}

// Backlink is a note that links to another one, with the links.
type Backlink struct {
	Path  string
	Title string
	Links []LinkSite
}

// OutLink is one link of a note and what it resolves to.
type OutLink struct {
	LinkSite
	// Path is the note (or, for an embedded file, the repository file) the
	// link resolves to; empty when it is broken.
	Path  string
	Title string
	// Broken says why the link is broken; empty when it resolves.
	Broken string
	// Ambiguous lists the other notes or files a bare name also names;
	// Path is the one the link resolves to.
	Ambiguous []string
}

// Why a link is broken, in OutLink.Broken and BrokenLink.Reason. A block
// reference ([[note#^id]]) whose note has no line ending in "^id" says
// "no block ^id".
const (
	BrokenNoNote    = "no such note"
	BrokenNoFile    = "no such file"
	BrokenNoHeading = "no such heading"
)

// NeighborLevel is the notes at one distance from a note.
type NeighborLevel struct {
	Depth int
	// Total counts the notes at this distance; Notes holds at most the
	// limit of them, by path.
	Total int
	Notes []Neighbor
}

// Neighbor is a note near another one.
type Neighbor struct {
	Path  string
	Title string
	// Via is the note one step closer through which it was reached (the
	// start note at depth 1); Direction says whether Via links to it (out),
	// it links to Via (in), or both.
	Via       string
	Direction Direction
	// Content is the start of the note, set when asked for.
	Content   string
	Truncated bool
}

// Hub is a note and its score for a metric.
type Hub struct {
	Path      string
	Title     string
	Score     float64
	InDegree  int
	OutDegree int
}

// BrokenLink is a link that resolves to nothing, or to a note without the
// heading it names.
type BrokenLink struct {
	// Path is the note holding the link.
	Path string
	LinkSite
	Reason string
	// To is the note the link resolves to when only its heading or block is
	// missing.
	To string
}

// AmbiguousLink is a link whose bare name names several notes or files.
type AmbiguousLink struct {
	// Path is the note holding the link.
	Path string
	LinkSite
	// To is the note or file the link resolves to; Others the rest.
	To     string
	Others []string
}

// Relink is a note whose links a change of note paths affects.
type Relink struct {
	// Path is the linking note's path now; File and Version its file and
	// the version the byte offsets of Links refer to.
	Path    string
	File    string
	Version string
	Links   []LinkEdit
}

// LinkEdit is one link that a change of note paths affects.
type LinkEdit struct {
	Line int
	// Start and End are the byte range of the written target in the note.
	Start int
	End   int
	// Old is the target as written; New the text that resolves to To after
	// the change, "" when there is none (To deleted, or no link text can
	// name it).
	Old string
	New string
	// To is the note the link should resolve to after the change: the new
	// path of the note it resolves to now, "" when that note is deleted.
	To string
	// Now is the note that Old resolves to after the change, "" when it
	// resolves to nothing: the link is broken unless it is rewritten.
	Now string
}

// graphAt returns the graph caught up with HEAD.
func (w *Wiki) graphAt(ctx context.Context) (Graph, error) {
	if _, err := w.await(ctx, w.graphLane); err != nil {
		return nil, err
	}
	return w.graph, nil
}

// withGraphAt runs fn with the graph at commit, holding it there: no other
// update runs until fn returns.
func (w *Wiki) withGraphAt(ctx context.Context, commit string, fn func(Graph) error) error {
	return w.hold(ctx, w.graphLane, commit, func() error { return fn(w.graph) })
}
