package graph

import (
	"slices"
	"strings"
)

// view is the graph as it is, or as it would be after some notes moved to
// new paths or were deleted: resolve looks links up in it. The zero moves
// are the graph itself.
type view struct {
	g *Graph
	// moved maps a moved note to its new path, "" when it is deleted.
	moved map[*node]string
	// byBase holds the moved notes under the last part of their new
	// paths, byTitle those whose title is their file name under the new
	// one.
	byBase, byTitle map[string][]*node
}

// table names a lookup table of the view.
type table uint8

const (
	tablePath table = iota
	tableSuffix
	tableTitle
	tableAlias
)

// base returns the view of the graph as it is.
func (g *Graph) base() *view { return &view{g: g} }

// moveNote records that n moves to newPath ("" deletes it).
func (v *view) moveNote(n *node, newPath string) {
	if v.moved == nil {
		v.moved = make(map[*node]string)
		v.byBase = make(map[string][]*node)
		v.byTitle = make(map[string][]*node)
	}
	v.moved[n] = newPath
	if newPath == "" {
		return
	}
	addTo(v.byBase, baseKey(newPath), n)
	if n.fileTitle {
		addTo(v.byTitle, strings.ToLower(baseName(newPath)), n)
	}
}

// titleOf returns a note's title in the view: a title taken from the file
// name follows the file.
func (v *view) titleOf(n *node) string {
	if p, ok := v.moved[n]; ok && n.fileTitle {
		return baseName(p)
	}
	return n.title
}

// pathOf returns a note's path in the view, "" when it is deleted.
func (v *view) pathOf(n *node) string {
	if p, ok := v.moved[n]; ok {
		return p
	}
	return n.path
}

// fileOf returns a note's file in the view.
func (v *view) fileOf(n *node) string {
	if p, ok := v.moved[n]; ok {
		return p + n.file[len(n.path):]
	}
	return n.file
}

// lookup returns the notes of a table under key, in the view: moved notes
// leave the path tables for their new keys, and the title table too when
// their title is their file name; they keep their aliases and other
// titles. Deleted notes leave every table.
func (v *view) lookup(t table, key string) []*node {
	if t == tablePath || t == tableSuffix {
		return v.pathNotes(key, t == tableSuffix)
	}
	var ns []*node
	var extra map[string][]*node
	switch t {
	case tableTitle:
		ns, extra = v.g.byTitle[key], v.byTitle
	default:
		ns = v.g.byAlias[key]
	}
	if v.moved == nil {
		return ns
	}
	var out []*node
	for _, n := range ns {
		p, ok := v.moved[n]
		if ok && (p == "" || t == tableTitle && n.fileTitle) {
			continue
		}
		out = append(out, n)
	}
	return append(out, extra[key]...)
}

// pathNotes returns the notes of the view whose path is key (lowercased),
// or with suffix true, ends with it after a '/'. Without moves, when every
// note of key's last part matches, it returns the table's own slice.
func (v *view) pathNotes(key string, suffix bool) []*node {
	base := baseName(key)
	ns := v.g.byBase[base]
	all := v.moved == nil
	for _, n := range ns {
		if !all {
			break
		}
		all = pathHas(n.path, key, suffix)
	}
	if all {
		return ns
	}
	var out []*node
	for _, n := range ns {
		if _, moved := v.moved[n]; !moved && pathHas(n.path, key, suffix) {
			out = append(out, n)
		}
	}
	for _, n := range v.byBase[base] {
		if p := v.moved[n]; pathHas(p, key, suffix) {
			out = append(out, n)
		}
	}
	return out
}

// filesAt returns the files that are not notes whose path is key
// (lowercased) or ends with it after a '/'.
func (g *Graph) filesAt(key string) []string {
	fs := g.fileBase[baseName(key)]
	for i, f := range fs {
		if !pathHas(f, key, true) {
			out := slices.Clone(fs[:i])
			for _, f := range fs[i+1:] {
				if pathHas(f, key, true) {
					out = append(out, f)
				}
			}
			return out
		}
	}
	return fs
}

// resolve returns the note a link of the note at srcPath resolves to in the
// view, and how it matched; src is the linking note, for [[#heading]].
func (v *view) resolve(l *link, src *node, srcPath string) (*node, match) {
	n, _, by, _ := v.resolveLink(l, src, srcPath)
	return n, by
}

// resolveLink returns the note or the file that is not a note a link of the
// note at srcPath resolves to in the view, how it matched, and for a bare
// name that names several notes or files, the others.
func (v *view) resolveLink(l *link, src *node, srcPath string) (*node, string, match, []string) {
	switch {
	case l.mode == modeSelf:
		return src, "", matchPath, nil
	case v.g.obsidian && l.kind != kindMarkdown:
		c, cs, ok := v.obsidian(l.target, srcPath)
		if !ok {
			return nil, "", matchNone, nil
		}
		var others []string
		if isBareName(l.target) && len(cs) > 1 {
			for _, o := range cs {
				if o != c {
					others = append(others, o.path(v))
				}
			}
		}
		if c.n != nil {
			return c.n, "", matchPath, others
		}
		return nil, c.file, matchPath, others
	case l.mode == modeFile || l.mode == modeFilePath:
		f := v.g.resolveFile(l, srcPath)
		if f == "" && v.g.obsidian && l.kind == kindMarkdown {
			// Obsidian looks a markdown link's path up as it does a wiki
			// link's; only a file that is not a note is taken
			if c, _, ok := v.obsidian(l.target, srcPath); ok && c.n == nil {
				f = c.file
			}
		}
		return nil, f, matchNone, nil
	}
	key := l.key()
	n, by := v.resolveNote(l, key, src, srcPath)
	if n == nil && v.g.obsidian && l.kind == kindMarkdown {
		// Obsidian looks a markdown path that names no note up as it does
		// a wiki link's: [x](Sub/Note.md) reaches any note whose path ends
		// with Sub/Note.md
		if c, _, ok := v.obsidian(l.target, srcPath); ok && c.n != nil {
			return c.n, "", matchPath, nil
		}
	}
	if n == nil || !isBareName(l.target) || l.mode != modeName {
		return n, "", by, nil
	}
	var others []string
	for _, o := range v.lookup(tableOf(by), key) {
		if o != n {
			others = append(others, v.pathOf(o))
		}
	}
	slices.Sort(others)
	return n, "", by, others
}

// tableOf returns the lookup table of a match.
func tableOf(by match) table {
	switch by {
	case matchTitle:
		return tableTitle
	case matchAlias:
		return tableAlias
	}
	return tableSuffix
}

// resolveNote resolves a link, whose lookup key is key, by path, then
// title, then alias.
func (v *view) resolveNote(l *link, key string, src *node, srcPath string) (*node, match) {
	switch l.mode {
	case modeSelf:
		return src, matchPath
	case modePath:
		if c := v.exact(key, l.want); c != nil {
			return c, matchPath
		}
	case modeName:
		if key == "" {
			return nil, matchNone
		}
		if strings.Contains(key, "/") {
			if c := v.exact(key, l.want); c != nil {
				return c, matchPath
			}
		}
		dir := folderOf(srcPath)
		if c := v.nearest(v.lookup(tableSuffix, key), dir, l.want, matchPath); c != nil {
			return c, matchPath
		}
		if c := v.nearest(v.lookup(tableTitle, key), dir, l.want, matchTitle); c != nil {
			return c, matchTitle
		}
		if c := v.nearest(v.lookup(tableAlias, key), dir, l.want, matchAlias); c != nil {
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
	for _, n := range v.lookup(tablePath, key) {
		if best == nil || better(v.pathOf(n) == want, v.pathOf(best) == want, v.fileOf(n), v.fileOf(best)) {
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
		shared, segs, exact := sharedFolders(dir, folderOf(p)), segments(p), sameCase(v.titleOf(n), n.aliases, p, want, by)
		if best == nil || shared > bestShared || shared == bestShared && (segs < bestSegs ||
			segs == bestSegs && better(exact, bestCase, v.fileOf(n), v.fileOf(best))) {
			best, bestShared, bestSegs, bestCase = n, shared, segs, exact
		}
	}
	return best
}

// sameCase reports whether what matched (the end of path p, the title or
// an alias) has the case of want.
func sameCase(title string, aliases []string, p, want string, by match) bool {
	switch by {
	case matchTitle:
		return title == want
	case matchAlias:
		return slices.Contains(aliases, want)
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
	key := l.key()
	if key == "" {
		return ""
	}
	cs := g.filesAt(key)
	var exact string
	for _, f := range cs {
		if strings.ToLower(f) == key && (exact == "" || better(f == l.want, exact == l.want, f, exact)) {
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
