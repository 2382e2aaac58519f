package graph

import (
	"strings"
)

// view is the graph as it is, or as it would be after some notes moved to
// new paths or were deleted: resolve looks links up in it. The zero moves
// are the graph itself.
type view struct {
	g *Graph
	// moved maps a moved note to its new path, "" when it is deleted.
	moved map[*node]string
	// byPath and bySuffix hold the moved notes under their new paths.
	byPath, bySuffix map[string][]*node
}

// base returns the view of the graph as it is.
func (g *Graph) base() *view { return &view{g: g} }

// moveNote records that n moves to newPath ("" deletes it).
func (v *view) moveNote(n *node, newPath string) {
	if v.moved == nil {
		v.moved = make(map[*node]string)
		v.byPath = make(map[string][]*node)
		v.bySuffix = make(map[string][]*node)
	}
	v.moved[n] = newPath
	if newPath == "" {
		return
	}
	for i, k := range suffixes(newPath) {
		if i == 0 {
			v.byPath[k] = append(v.byPath[k], n)
		}
		v.bySuffix[k] = append(v.bySuffix[k], n)
	}
}

// pathOf returns a note's path in the view, "" when it is deleted.
func (v *view) pathOf(n *node) string {
	if p, ok := v.moved[n]; ok {
		return p
	}
	return n.path
}

// lookup returns the notes of a table under key, in the view: moved notes
// leave the path tables for their new keys and keep their titles and
// aliases; deleted notes leave every table.
func (v *view) lookup(table map[string][]*node, extra map[string][]*node, key string) []*node {
	ns := table[key]
	if v.moved == nil {
		return ns
	}
	pathTable := extra != nil
	var out []*node
	for _, n := range ns {
		if p, ok := v.moved[n]; ok && (pathTable || p == "") {
			continue
		}
		out = append(out, n)
	}
	return append(out, extra[key]...)
}

// resolve returns the note a link of the note at srcPath resolves to in the
// view, and how it matched; src is the linking note, for [[#heading]].
func (v *view) resolve(l *link, src *node, srcPath string) (*node, match) {
	switch l.mode {
	case modeSelf:
		return src, matchPath
	case modePath:
		if c := v.exact(l.key, l.want); c != nil {
			return c, matchPath
		}
	case modeName:
		if l.key == "" {
			return nil, matchNone
		}
		if strings.Contains(l.key, "/") {
			if c := v.exact(l.key, l.want); c != nil {
				return c, matchPath
			}
		}
		dir := folderOf(srcPath)
		if c := v.nearest(v.lookup(v.g.bySuffix, v.bySuffix, l.key), dir, l.want, matchPath); c != nil {
			return c, matchPath
		}
		if c := v.nearest(v.lookup(v.g.byTitle, nil, l.key), dir, l.want, matchTitle); c != nil {
			return c, matchTitle
		}
		if c := v.nearest(v.lookup(v.g.byAlias, nil, l.key), dir, l.want, matchAlias); c != nil {
			return c, matchAlias
		}
	}
	return nil, matchNone
}

// exact returns the note whose path is key, preferring the case of want,
// then the first file.
func (v *view) exact(key, want string) *node {
	if key == "" {
		return nil
	}
	var best *node
	for _, n := range v.lookup(v.g.byPath, v.byPath, key) {
		if best == nil || better(v.pathOf(n) == want, v.pathOf(best) == want, n.file, best.file) {
			best = n
		}
	}
	return best
}

func better(exactA, exactB bool, fileA, fileB string) bool {
	if exactA != exactB {
		return exactA
	}
	return fileA < fileB
}

// nearest picks among candidates the one nearest to the folder dir: the
// most leading folders shared with dir, then the fewest folders, then the
// case as written (of the path's end, or of the title or an alias), then
// the first file.
func (v *view) nearest(cs []*node, dir, want string, by match) *node {
	if len(cs) <= 1 {
		if len(cs) == 1 {
			return cs[0]
		}
		return nil
	}
	var best *node
	var bestShared, bestSegs int
	var bestCase bool
	for _, n := range cs {
		p := v.pathOf(n)
		shared, segs, exact := sharedFolders(dir, folderOf(p)), segments(p), sameCase(n, p, want, by)
		if best == nil || shared > bestShared || shared == bestShared && (segs < bestSegs ||
			segs == bestSegs && better(exact, bestCase, n.file, best.file)) {
			best, bestShared, bestSegs, bestCase = n, shared, segs, exact
		}
	}
	return best
}

// sameCase reports whether what matched has the case of want.
func sameCase(n *node, p, want string, by match) bool {
	switch by {
	case matchTitle:
		return n.title == want
	case matchAlias:
		for _, a := range n.aliases {
			if a == want {
				return true
			}
		}
		return false
	}
	return p == want || strings.HasSuffix(p, "/"+want)
}

// sharedFolders counts the leading folders two folders have in common.
func sharedFolders(a, b string) int {
	if a == "" || b == "" {
		return 0
	}
	n := 0
	for {
		ia, ib := strings.IndexByte(a, '/'), strings.IndexByte(b, '/')
		sa, sb := a, b
		if ia >= 0 {
			sa = a[:ia]
		}
		if ib >= 0 {
			sb = b[:ib]
		}
		if sa != sb {
			return n
		}
		n++
		if ia < 0 || ib < 0 {
			return n
		}
		a, b = a[ia+1:], b[ib+1:]
	}
}

// resolveFile returns the file a file link resolves to, "" when none: the
// file with the whole path (the case as written first), else for a link
// that is not a path from the root the nearest file whose path ends with
// the target.
func (g *Graph) resolveFile(l *link, srcPath string) string {
	if l.key == "" {
		return ""
	}
	cs := g.fileSuffix[l.key]
	var exact string
	for _, f := range cs {
		if strings.ToLower(f) == l.key && (exact == "" || better(f == l.want, exact == l.want, f, exact)) {
			exact = f
		}
	}
	if exact != "" || l.mode == modeFilePath {
		return exact
	}
	dir := folderOf(srcPath)
	var best string
	bestShared, bestSegs := -1, 0
	for _, f := range cs {
		shared, segs := sharedFolders(dir, folderOf(f)), segments(f)
		if shared > bestShared || shared == bestShared && (segs < bestSegs || segs == bestSegs && f < best) {
			best, bestShared, bestSegs = f, shared, segs
		}
	}
	return best
}
