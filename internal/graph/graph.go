package graph

import (
	"context"
	"strings"
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
	obsidian bool        // wiki links resolve as Obsidian resolves them
	vault    *vaultMarks // set when the commits tell obsidian (NewDetecting)
	commit   string
	gen      uint64 // counts changes, for caches

	notes map[string]*node // by repository file
	files map[string]bool  // files that are not notes, by repository file

	// Lookup tables of notes by lowercased key: the last part of the
	// note path (a note is found by its whole path, or by a trailing part
	// of it, among the notes of its last part: see pathNotes), the title
	// and each alias. A table by every trailing part took a fifth of a
	// large graph's memory.
	byBase  map[string][]*node
	byTitle map[string][]*node
	byAlias map[string][]*node
	// fileBase looks files up like byBase: the lowercased last part of
	// their paths to the files.
	fileBase map[string][]string
	// byKey finds the notes with a link under a lookup key, to resolve
	// those links again when a note or file with that key comes or goes;
	// each note once.
	byKey map[string][]*node

	rank rankCache

	// read reads a note's content by its blob id when the graph shows the
	// lines the note's links sit on (backlinks, outlinks, broken and
	// ambiguous links): those lines took a fifth of a large graph's
	// memory, so the graph does not keep them. Apply sets it from its
	// update, ReadBlobsWith for ApplyFiles; without it the lines are
	// empty.
	read func(ctx context.Context, id string) ([]byte, error)
}

// ReadBlobsWith makes a graph that ApplyFiles builds read the content of
// its notes by blob id (File.Version) with read, for the lines their links
// sit on; Apply reads them from its update's repository.
func (g *Graph) ReadBlobsWith(read func(ctx context.Context, id string) ([]byte, error)) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.read = read
}

// node is one note.
type node struct {
	file, path, version, title string
	fileTitle                  bool // the title is the file name
	aliases                    []string
	headings                   []string // headingKeys of every heading, and "^id" block ids; sorted, each once
	links                      []link
	// out and in count the links between this note and other notes.
	out, in edges
}

// link is one link of a note and what it resolves to. Graphs keep every
// link of every note, so it is kept small: the fields most links leave
// empty are in extra, and the lookup key is want lowercased on demand.
type link struct {
	target string // as parsed: decoded for markdown links
	want   string // lookup key with its case as written; "" resolves to nothing
	file   string // the file that is not a note it resolves to
	to     *node  // the note it resolves to, nil if none
	x      *extra // nil when all its fields are empty
	line   uint32
	start  uint32 // byte range of the target text
	end    uint32
	at     uint32 // where the link starts, for the line it sits on (see lines)
	kind   kind
	mode   mode
	by     match
	ok     bool // the heading, if any, exists
}

// extra holds the fields of a link that few links have.
type extra struct {
	raw     string // the target as written when it differs from target: an encoded markdown link
	angle   bool   // a markdown destination in <angle brackets>
	heading string
	others  []string // for a bare name, the other notes or files it names
}

// kind is a link's note.LinkKind.
type kind uint8

const (
	kindWiki kind = iota
	kindEmbed
	kindMarkdown
)

// kindOf returns the kind of a parsed link.
func kindOf(k note.LinkKind) kind {
	switch k {
	case note.LinkEmbed:
		return kindEmbed
	case note.LinkMarkdown:
		return kindMarkdown
	}
	return kindWiki
}

// String returns the kind's note.LinkKind.
func (k kind) String() string {
	switch k {
	case kindEmbed:
		return string(note.LinkEmbed)
	case kindMarkdown:
		return string(note.LinkMarkdown)
	}
	return string(note.LinkWiki)
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
	g.mu.RLock()
	defer g.mu.RUnlock()
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
	if g.vault != nil {
		g.vault.files, g.vault.ignored = 0, false
	}
	g.gen++
	g.notes = make(map[string]*node)
	g.files = make(map[string]bool)
	g.byBase = make(map[string][]*node)
	g.byTitle = make(map[string][]*node)
	g.byAlias = make(map[string][]*node)
	g.fileBase = make(map[string][]string)
	g.byKey = make(map[string][]*node)
}

// ref returns the wiki's name for a note.
func (n *node) ref() wiki.NoteRef { return wiki.NoteRef{Path: n.path, Title: n.title} }

// site returns the link as written, with the line it sits on.
func (l *link) site(line string) wiki.LinkSite {
	return wiki.LinkSite{Line: int(l.line), Kind: l.kind.String(), Target: l.target, Heading: l.heading(), Context: line}
}

// lines returns the line a link of n sits on, as backlinks show it: it
// reads n's content the first time it is asked. A line is "" when there is
// no reader or the content cannot be read. The caller holds g.mu.
func (g *Graph) lines(n *node) func(l *link) string {
	var raw []byte
	read := false
	return func(l *link) string {
		if !read {
			read = true
			if g.read != nil {
				raw, _ = g.read(context.Background(), n.version)
			}
		}
		if int(l.at) > len(raw) {
			return ""
		}
		return contextLine(raw, int(l.at))
	}
}

// key returns the link's lookup key, lowercased.
func (l *link) key() string { return strings.ToLower(l.want) }

// heading returns the heading after '#', "" when there is none.
func (l *link) heading() string {
	if l.x == nil {
		return ""
	}
	return l.x.heading
}

// others returns, for a bare name, the other notes or files it names.
func (l *link) others() []string {
	if l.x == nil {
		return nil
	}
	return l.x.others
}

// setOthers records the other notes or files a bare name names.
func (l *link) setOthers(others []string) {
	if l.x != nil || len(others) > 0 {
		l.extras().others = others
	}
}

// extras returns the link's extra fields, adding them when it has none.
func (l *link) extras() *extra {
	if l.x == nil {
		l.x = &extra{}
	}
	return l.x
}

// encoded reports whether a markdown link's target is written otherwise
// than it reads: percent-encoded.
func (l *link) encoded() bool { return l.x != nil && l.x.raw != "" }

// angle reports whether a markdown link's destination is in <angle
// brackets>.
func (l *link) angle() bool { return l.x != nil && l.x.angle }

// written returns the target text as it stands in the note.
func (l *link) written() string {
	if l.encoded() {
		return l.x.raw
	}
	return l.target
}
