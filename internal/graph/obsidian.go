package graph

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// candidate is a note or another file that a link target can name.
type candidate struct {
	n    *node  // the note, nil for a file that is not a note
	file string // the repository file, in the view
}

// lower returns the candidate's repository file, lowercased.
func (c candidate) lower() string { return strings.ToLower(c.file) }

// path returns the candidate's note path in the view, or its file.
func (c candidate) path(v *view) string {
	if c.n != nil {
		return v.pathOf(c.n)
	}
	return c.file
}

// byFileName returns the notes and files whose file name, lowercased, is
// name (with its extension), by file.
func (v *view) byFileName(name string) []candidate {
	if name == "" {
		return nil
	}
	var out []candidate
	if base, ext := splitNoteExt(name); ext != "" {
		for _, n := range v.lookup(tableSuffix, base) {
			if f := v.fileOf(n); strings.ToLower(baseName(f)) == name {
				out = append(out, candidate{n: n, file: f})
			}
		}
	}
	for _, f := range v.g.filesAt(name) {
		if strings.ToLower(baseName(f)) == name {
			out = append(out, candidate{file: f})
		}
	}
	slices.SortFunc(out, func(a, b candidate) int { return strings.Compare(a.file, b.file) })
	return out
}

// obsidian resolves a wiki link target written in the note at srcPath as
// Obsidian's getLinkpathDest does (see the package comment): it returns
// the candidate chosen and every note or file with the target's file name,
// the chosen one included.
func (v *view) obsidian(target, srcPath string) (candidate, []candidate, bool) {
	lt := strings.ToLower(target)
	name := baseName(lt)
	var cs []candidate
	if strings.Contains(name, ".") {
		cs = v.byFileName(name)
	}
	if len(cs) == 0 {
		lt += ".md"
		name = baseName(lt)
		cs = v.byFileName(name)
	}
	if len(cs) == 0 {
		return candidate{}, nil, false
	}
	if name == lt && len(cs) == 1 {
		return cs[0], cs, true
	}
	dir := strings.ToLower(folderOf(srcPath))
	if strings.HasPrefix(lt, "./") || strings.HasPrefix(lt, "../") {
		lt = obsidianRel(dir, lt)
		for _, c := range cs {
			if c.lower() == lt {
				return c, cs, true
			}
		}
	}
	lt = strings.TrimPrefix(lt, "/")
	for _, c := range cs {
		if c.lower() == lt {
			return c, cs, true
		}
	}
	if strings.HasPrefix(target, "/") {
		return candidate{}, cs, false
	}
	var best candidate
	bestSame, found := false, false
	for _, c := range cs {
		p := c.lower()
		if !strings.HasSuffix(p, lt) {
			continue
		}
		same := strings.HasPrefix(p, dir)
		n, bn := utf8.RuneCountInString(c.file), utf8.RuneCountInString(best.file)
		if !found || same && !bestSame || same == bestSame && (n < bn || n == bn && c.file < best.file) {
			best, bestSame, found = c, same, true
		}
	}
	return best, cs, found
}

// obsidianRel joins a target starting with "./" or "../" to the folder dir
// as Obsidian does: "../" above the root stays at the root.
func obsidianRel(dir, lt string) string {
	if strings.HasPrefix(lt, "./../") {
		lt = lt[2:]
	}
	if strings.HasPrefix(lt, "./") {
		lt = lt[2:]
	} else {
		for strings.HasPrefix(lt, "../") {
			lt = lt[3:]
			dir = folderOf(dir)
		}
	}
	if dir == "" {
		return lt
	}
	return dir + "/" + lt
}

// isBareName reports whether a wiki link target is a name without a
// folder.
func isBareName(target string) bool { return target != "" && !strings.Contains(target, "/") }
