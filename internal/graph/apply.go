package graph

import (
	"context"
	"slices"
	"strings"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// File is one file of a commit as the graph takes it: a parsed note, or
// (Note nil) a file that is not a note, such as an image, that links may
// embed.
type File struct {
	File    string // repository-relative, with extension
	Version string // blob id
	Note    *note.Note
}

// Name is the graph's name in logs, errors and progress.
func (g *Graph) Name() string { return "link graph" }

// Apply brings the graph from u.From, its commit, to u.To with the notes,
// and the files links may embed, that changed (see ApplyFiles). It returns
// the update's errors.
func (g *Graph) Apply(ctx context.Context, u *wiki.Update) error {
	g.mu.Lock()
	g.read = u.Blobs()
	g.mu.Unlock()
	changes, err := u.Changes(ctx)
	if err != nil {
		return err
	}
	var files []added
	var deleted []string
	var vs *vaultStep
	if g.vault != nil {
		vs = &vaultStep{checkout: g.vault.checkout != nil && g.vault.checkout()}
	}
	for i, ch := range changes {
		if i%256 == 255 {
			if err := u.Yield(ctx); err != nil {
				return err
			}
		}
		if vs != nil {
			if err := vs.see(ctx, u, ch); err != nil {
				return err
			}
		}
		if ch.Delete {
			deleted = append(deleted, ch.Path)
			continue
		}
		if !graphFile(ch.Path) {
			continue
		}
		f := File{File: ch.Path, Version: ch.NewBlob}
		n, nf, ok, err := u.Note(ctx, ch.Path)
		if err != nil {
			return err
		}
		if ok {
			f.Version, f.Note = nf.Blob, n
		}
		// The node, not the note: a first build holds what the graph
		// keeps of every note until all are read, not every note.
		files = append(files, addedOf(f))
	}
	g.apply(u.To, files, deleted, vs)
	return nil
}

// added is a file the graph adds: a note's node, or a file links may
// embed (node nil).
type added struct {
	file string
	node *node
}

func addedOf(f File) added {
	if f.Note == nil {
		return added{file: f.File}
	}
	return added{file: f.File, node: newNode(f)}
}

// graphFile reports whether a repository file belongs in the graph: a note,
// or a file links may embed (no segment starting with a dot).
func graphFile(file string) bool {
	if _, _, ok := note.SplitFileName(file); ok {
		return true
	}
	_, err := note.CleanFolder(file)
	return err == nil
}

// patch collects what a change touches: the lookup keys whose notes or
// files came or went (nil when the graph was empty: nothing to follow),
// and the notes whose links must be resolved again.
type patch struct {
	keys  map[string]bool
	dirty map[*node]bool
}

// touch records that notes or files with key came or went.
func (p *patch) touch(k string) {
	if p.keys != nil {
		p.keys[k] = true
	}
}

// ApplyFiles brings the graph to commit `to`: it removes the deleted files, adds
// or replaces the given ones, and resolves again every link that could
// resolve differently now — the links of the added notes, and every link
// whose lookup key names a note or file that came or went. The result is
// the graph that a build from all files of `to` gives.
func (g *Graph) ApplyFiles(to string, files []File, deleted []string) {
	adds := make([]added, len(files))
	for i, f := range files {
		adds[i] = addedOf(f)
	}
	g.apply(to, adds, deleted, nil)
}

// apply is ApplyFiles with the added files' nodes made, and vs the step of
// the vault's marks, for a graph that tells its mode from them.
func (g *Graph) apply(to string, files []added, deleted []string, vs *vaultStep) {
	g.mu.Lock()
	defer g.mu.Unlock()
	// In an empty graph every note is new: all of them are resolved, and
	// no key needs to be followed.
	p := &patch{keys: make(map[string]bool), dirty: make(map[*node]bool, len(files))}
	if len(g.notes) == 0 && len(g.files) == 0 {
		p.keys = nil
	}
	for _, f := range deleted {
		g.remove(f, p)
	}
	for _, f := range files {
		g.remove(f.file, p)
		g.add(f, p)
	}
	for k := range p.keys {
		for _, s := range g.byKey[k] {
			p.dirty[s] = true
		}
	}
	if g.detect(vs) {
		// Every link may resolve otherwise in the other mode.
		for _, n := range g.notes {
			p.dirty[n] = true
		}
	}
	v := g.base()
	for s := range p.dirty {
		if g.notes[s.file] == s {
			g.resolveNode(v, s)
		}
	}
	g.commit = to
	g.gen++
}

// add adds a note or another file.
func (g *Graph) add(f added, p *patch) {
	n := f.node
	if n == nil {
		g.files[f.file] = true
		g.fileBase[baseKey(f.file)] = append(g.fileBase[baseKey(f.file)], f.file)
		for _, k := range suffixes(f.file) {
			p.touch(k)
		}
		return
	}
	g.notes[n.file] = n
	addTo(g.byBase, baseKey(n.path), n)
	addTo(g.byTitle, strings.ToLower(n.title), n)
	for _, a := range n.aliases {
		addTo(g.byAlias, strings.ToLower(a), n)
	}
	if p.keys != nil {
		for _, k := range n.keys() {
			p.touch(k)
		}
	}
	for i := range n.links {
		for _, k := range n.links[i].lookupKeys() {
			// n's keys are added together: a key it has already
			// ends with n.
			if ns := g.byKey[k]; len(ns) == 0 || ns[len(ns)-1] != n {
				g.byKey[k] = append(ns, n)
			}
		}
	}
	p.dirty[n] = true
}

// newNode returns the node of a parsed note, links not yet resolved.
func newNode(f File) *node {
	nt := f.Note
	n := &node{file: f.File, path: within(f.File, nt.Path), version: f.Version, headings: headingKeys(nt),
		title: within(f.File, strings.TrimSpace(nt.Title)), fileTitle: nt.TitleSource == note.TitleFromFileName}
	for _, a := range nt.Aliases {
		if a = strings.TrimSpace(a); a != "" && !slices.Contains(n.aliases, a) {
			n.aliases = append(n.aliases, a)
		}
	}
	// Sized once: a graph keeps every note's links, and append's
	// doubling left up to half of them spare.
	n.links = make([]link, 0, len(nt.Links))
	for _, l := range nt.Links {
		if ln, ok := newLink(nt, l); ok {
			n.links = append(n.links, ln)
		}
	}
	shareText(n.links)
	return n
}

// remove removes the note or file at a repository path, if any.
func (g *Graph) remove(file string, p *patch) {
	n := g.notes[file]
	if n == nil {
		if g.files[file] {
			delete(g.files, file)
			b := baseKey(file)
			if g.fileBase[b] = deleteFrom(g.fileBase[b], file); len(g.fileBase[b]) == 0 {
				delete(g.fileBase, b)
			}
			for _, k := range suffixes(file) {
				p.touch(k)
			}
		}
		return
	}
	delete(g.notes, file)
	removeFrom(g.byBase, baseKey(n.path), n)
	removeFrom(g.byTitle, strings.ToLower(n.title), n)
	for _, a := range n.aliases {
		removeFrom(g.byAlias, strings.ToLower(a), n)
	}
	if p.keys != nil {
		for _, k := range n.keys() {
			p.touch(k)
		}
	}
	for i := range n.links {
		for _, k := range n.links[i].lookupKeys() {
			removeFrom(g.byKey, k, n)
		}
	}
	for t := range n.out.all() {
		t.in.unlink(n)
	}
	for s := range n.in.all() {
		p.dirty[s] = true
	}
}

// resolveNode resolves every link of s in v and updates the edges.
func (g *Graph) resolveNode(v *view, s *node) {
	for i := range s.links {
		l := &s.links[i]
		if l.to != nil && l.to != s {
			disconnect(s, l.to)
		}
		var others []string
		l.to, l.file, l.by, others = v.resolveLink(l, s, s.path)
		l.setOthers(others)
		switch {
		case l.file != "":
			l.ok = true
		case l.to != nil:
			l.ok = l.heading() == "" || l.to.hasHeading(l.heading())
			if l.to != s {
				connect(s, l.to)
			}
		default:
			l.ok = false
		}
	}
}

// connect counts a link from s to t.
func connect(s, t *node) {
	s.out.add(t)
	t.in.add(s)
}

// disconnect counts a link from s to t less.
func disconnect(s, t *node) {
	s.out.remove(t)
	t.in.remove(s)
}

func addTo(table map[string][]*node, key string, n *node) {
	if key != "" {
		table[key] = append(table[key], n)
	}
}

func removeFrom(table map[string][]*node, key string, n *node) {
	ns := table[key]
	if i := slices.Index(ns, n); i >= 0 {
		ns = slices.Delete(ns, i, i+1)
	}
	if len(ns) == 0 {
		delete(table, key)
		return
	}
	table[key] = ns
}

func deleteFrom(fs []string, f string) []string {
	if i := slices.Index(fs, f); i >= 0 {
		return slices.Delete(fs, i, i+1)
	}
	return fs
}

// lookupKeys returns the keys under which a link is found when a note or
// file comes or goes: its lookup key, and the lowercased file name it
// names without a markdown extension, which is how Obsidian looks it up,
// a markdown link's path too (a note that comes with that name can take
// the link over).
func (l *link) lookupKeys() []string {
	var ks []string
	key := l.key()
	if key != "" {
		ks = append(ks, key)
	}
	if l.mode == modeSelf {
		return ks
	}
	name, _ := splitNoteExt(baseName(strings.ToLower(strings.TrimSpace(l.target))))
	if name != "" && name != key {
		ks = append(ks, name)
	}
	return ks
}
