package graph

import (
	"context"
	"sync"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

var (
	_ wiki.Graph        = (*Graph)(nil)
	_ wiki.DerivedStore = (*Graph)(nil)
)

// Graph is the link graph of the notes at one commit. The zero value is not
// usable; call New. A Graph is safe for concurrent use: queries share a read
// lock, ApplyFiles and Reset take it exclusively.
type Graph struct {
	mu       sync.RWMutex
	obsidian bool // wiki links resolve as Obsidian resolves them
	commit   string
	gen      uint64 // counts changes, for caches

	notes map[string]*node // by repository file
	files map[string]bool  // files that are not notes, by repository file

	// Lookup tables of notes by lowercased key: the whole note path, every
	// trailing part of it ("a/b/c" gives "c", "b/c" and "a/b/c"), the title
	// and each alias.
	byPath   map[string][]*node
	bySuffix map[string][]*node
	byTitle  map[string][]*node
	byAlias  map[string][]*node
	// fileSuffix looks files up like bySuffix: lowercased trailing parts of
	// their paths to the files.
	fileSuffix map[string][]string
	// byKey finds the notes with a link under a lookup key, to resolve
	// those links again when a note or file with that key comes or goes.
	byKey map[string]map[*node]struct{}

	rank rankCache
}

// node is one note.
type node struct {
	file, path, version, title string
	fileTitle                  bool // the title is the file name
	aliases                    []string
	headings                   map[string]bool // headingKeys of every heading, and "^id" block ids
	links                      []link
	// out and in count the links between this note and other notes.
	out, in map[*node]int
}

// link is one link of a note and what it resolves to.
type link struct {
	kind    note.LinkKind
	target  string // as parsed: decoded for markdown links
	raw     string // the target bytes as written, for markdown links
	angle   bool   // a markdown destination in <angle brackets>
	heading string
	line    int
	start   int // byte range of the target text
	end     int
	context string

	mode mode
	key  string // lookup key, lowercased; "" resolves to nothing
	want string // key with its case as written

	to     *node  // the note it resolves to, nil if none
	file   string // the file that is not a note it resolves to
	by     match
	ok     bool     // the heading, if any, exists
	others []string // for a bare name, the other notes or files it names
}

// New returns an empty graph that resolves links by path, then title, then
// alias (wiki.ResolveWiki).
func New() *Graph { return NewResolving(wiki.ResolveWiki) }

// NewResolving returns an empty graph that resolves wiki links by r; any
// value but wiki.ResolveObsidian is wiki.ResolveWiki.
func NewResolving(r wiki.LinkResolution) *Graph {
	g := &Graph{obsidian: r == wiki.ResolveObsidian}
	g.reset()
	return g
}

// Resolution returns how the graph resolves wiki links.
func (g *Graph) Resolution() wiki.LinkResolution {
	if g.obsidian {
		return wiki.ResolveObsidian
	}
	return wiki.ResolveWiki
}

// Commit returns the commit the graph reflects, "" when it is empty.
func (g *Graph) Commit() string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.commit
}

// Len returns the number of notes.
func (g *Graph) Len() int {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return len(g.notes)
}

// Reset empties the graph, for a rebuild; it never fails.
func (g *Graph) Reset(context.Context) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reset()
	return nil
}

func (g *Graph) reset() {
	g.commit = ""
	g.gen++
	g.notes = make(map[string]*node)
	g.files = make(map[string]bool)
	g.byPath = make(map[string][]*node)
	g.bySuffix = make(map[string][]*node)
	g.byTitle = make(map[string][]*node)
	g.byAlias = make(map[string][]*node)
	g.fileSuffix = make(map[string][]string)
	g.byKey = make(map[string]map[*node]struct{})
}

// ref returns the wiki's name for a note.
func (n *node) ref() wiki.NoteRef { return wiki.NoteRef{Path: n.path, Title: n.title} }

// site returns the link as written.
func (l *link) site() wiki.LinkSite {
	return wiki.LinkSite{Line: l.line, Kind: string(l.kind), Target: l.target, Heading: l.heading, Context: l.context}
}

// written returns the target text as it stands in the note.
func (l *link) written() string {
	if l.kind == note.LinkMarkdown {
		return l.raw
	}
	return l.target
}
