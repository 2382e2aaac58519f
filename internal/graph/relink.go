package graph

import (
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

// Relinks returns the links that moving notes (moves maps note paths to
// new paths) or deleting them (to "") would break, by linking note: every
// link that resolves to one of those notes, every link inside a moved note
// and every link whose target could name a moved note at its new place (by
// path, title or alias) is
// resolved again as if the change were made, and listed when it would no
// longer resolve to the note it resolves to now (at that note's new path),
// with the text that would (see the package comment for its style). Links
// that resolve to nothing now are left out, and so are the links of
// deleted notes. Paths in moves that name no note are ignored.
func (g *Graph) Relinks(moves map[string]string) []wiki.Relink {
	g.mu.RLock()
	defer g.mu.RUnlock()
	v := g.base()
	var moved []*node
	for old, to := range moves {
		for _, n := range g.base().pathNotes(strings.ToLower(old), false) {
			if n.path == old {
				v.moveNote(n, to)
				moved = append(moved, n)
			}
		}
	}
	sources := make(map[*node]int)
	for _, n := range moved {
		sources[n]++
		for s := range n.in.all() {
			sources[s]++
		}
		to := v.moved[n]
		if to == "" {
			continue
		}
		// at its new place the note can win a tie by its path, title or
		// alias that another note won before
		keys := append(suffixes(to), strings.ToLower(v.titleOf(n)))
		for _, a := range n.aliases {
			keys = append(keys, strings.ToLower(a))
		}
		for _, k := range keys {
			for _, s := range g.byKey[k] {
				sources[s]++
			}
		}
	}
	var out []wiki.Relink
	for _, s := range sortedNodes(sources) {
		if edits := v.relinks(s); len(edits) > 0 {
			out = append(out, wiki.Relink{Path: s.path, File: s.file, Version: s.version, Links: edits})
		}
	}
	return out
}

// relinks returns the links of s that resolve to another note in v than in
// the graph.
func (v *view) relinks(s *node) []wiki.LinkEdit {
	sp := v.pathOf(s)
	if sp == "" {
		return nil
	}
	dir := folderOf(sp)
	var edits []wiki.LinkEdit
	for i := range s.links {
		l := &s.links[i]
		if l.file != "" {
			if e, ok := v.relinkFile(l, s, sp); ok {
				edits = append(edits, e)
			}
			continue
		}
		if l.to == nil || l.mode != modeName && l.mode != modePath {
			continue
		}
		to := v.pathOf(l.to)
		now, by := v.resolve(l.relocated(l.target, dir), s, sp)
		// a link that named the note's file must still name it: reaching
		// it by a title or an alias is not enough
		if now == l.to && to != "" && (l.by != matchPath || by == matchPath) {
			continue
		}
		e := wiki.LinkEdit{Line: int(l.line), Start: int(l.start), End: int(l.end), Old: l.written(), To: to}
		if now != nil {
			e.Now = v.pathOf(now)
		}
		if to != "" {
			e.New = v.rewrite(l, s, l.to)
		}
		edits = append(edits, e)
	}
	return edits
}

// relinkFile returns the edit for link l of note s, now at sp in v, that
// resolves to a file that is not a note, if the link would resolve to
// another file (or none) in v: a move of s changes what a relative path
// from it names. Files do not move, so only links of moved notes change.
func (v *view) relinkFile(l *link, s *node, sp string) (wiki.LinkEdit, bool) {
	if _, moved := v.moved[s]; !moved {
		return wiki.LinkEdit{}, false
	}
	dir := folderOf(sp)
	// a markdown path that named the file must still name it: Obsidian's
	// lookup by file name is not enough
	exact := l.kind == kindMarkdown && v.g.resolveFile(l, s.path) != ""
	resolves := func(text string) (bool, string) {
		c := l.relocated(text, dir)
		if exact {
			f := v.g.resolveFile(c, sp)
			return f == l.file, f
		}
		n, f, _, _ := v.resolveLink(c, s, sp)
		if n != nil {
			return false, v.pathOf(n)
		}
		return f == l.file, f
	}
	same, now := resolves(l.target)
	if same {
		return wiki.LinkEdit{}, false
	}
	e := wiki.LinkEdit{Line: int(l.line), Start: int(l.start), End: int(l.end), Old: l.written(), To: l.file, Now: now}
	for _, t := range fileTexts(l, dir) {
		if ok, _ := resolves(t.target); ok {
			e.New = t.text
			break
		}
	}
	return e, true
}

// fileText is a target text to try for a link to a file: as the graph
// reads it, and as written in the note.
type fileText struct{ target, text string }

// fileTexts returns the target texts that could name l.file from a note in
// folder dir, in the link's own style, best first: a markdown link or a
// relative wiki link gets the relative path (keeping a leading "./"); any
// other wiki link keeps as many trailing segments as it had, then more,
// then the path from the root.
func fileTexts(l *link, dir string) []fileText {
	rel := relPath(dir, l.file)
	if strings.HasPrefix(l.target, "./") && !strings.HasPrefix(rel, "../") {
		rel = "./" + rel
	}
	if l.kind == kindMarkdown {
		return []fileText{{rel, escapeDest(rel, l.encoded(), l.angle())}}
	}
	var out []fileText
	add := func(t string) {
		if validWikiTarget(t) {
			out = append(out, fileText{t, t})
		}
	}
	switch {
	case isRelative(l.target):
		add(rel)
	case strings.HasPrefix(l.target, "/"):
	default:
		for j := segments(strings.TrimPrefix(l.target, "./")); j <= segments(l.file); j++ {
			add(lastSegments(l.file, j))
		}
	}
	add("/" + l.file)
	return out
}

// relocated returns the link with another target text, as written in a
// note in folder dir.
func (l *link) relocated(target, dir string) *link {
	c := &link{kind: l.kind, target: target}
	switch {
	case l.kind == kindMarkdown:
		c.mode, c.want = markdownTarget(target, dir)
	case l.mode == modeFile || l.mode == modeFilePath:
		c.mode, c.want = fileTarget(target, dir)
	default:
		c.mode, c.want = noteTarget(target, dir)
	}
	return c
}

// rewrite returns the text that makes link l of note s resolve to target
// in v, in the link's own style; "" when no text does.
func (v *view) rewrite(l *link, s, target *node) string {
	sp, to := v.pathOf(s), v.pathOf(target)
	dir := folderOf(sp)
	resolves := func(text string) bool {
		got, by := v.resolve(l.relocated(text, dir), s, sp)
		return got == target && (l.by != matchPath || by == matchPath)
	}
	if l.kind == kindMarkdown {
		rel := relPath(dir, to+target.file[len(target.path):])
		if strings.HasPrefix(l.written(), "./") && !strings.HasPrefix(rel, "../") {
			rel = "./" + rel
		}
		if !resolves(rel) {
			return ""
		}
		return escapeDest(rel, l.encoded(), l.angle())
	}
	base, ext := splitNoteExt(l.target)
	var tries []string
	switch {
	case isRelative(base):
		rel := relPath(dir, to)
		if strings.HasPrefix(base, "./") && !strings.HasPrefix(rel, "../") {
			rel = "./" + rel
		}
		tries = append(tries, rel)
	case strings.HasPrefix(base, "/"):
	default:
		k, n := segments(base), segments(to)
		switch {
		case l.by != matchPath:
			k = 1
		case k > 1 && k == segments(target.path):
			k = n // the whole path stays the whole path
		}
		for j := min(k, n); j <= n; j++ {
			tries = append(tries, lastSegments(to, j))
		}
	}
	tries = append(tries, "/"+to)
	for _, t := range tries {
		if t += ext; validWikiTarget(t) && resolves(t) {
			return t
		}
	}
	return ""
}

// lastSegments returns the last j segments of a path.
func lastSegments(p string, j int) string {
	i := len(p)
	for ; j > 0 && i > 0; j-- {
		i = strings.LastIndexByte(p[:i], '/')
		if i < 0 {
			return p
		}
	}
	return p[i+1:]
}

// validWikiTarget reports whether text can stand as the target of a wiki
// link and be read back the same.
func validWikiTarget(t string) bool {
	return t != "" && strings.TrimSpace(t) == t && !strings.ContainsAny(t, "|#[]\r\n")
}
