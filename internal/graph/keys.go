package graph

import (
	"path"
	"strings"
	"unicode/utf8"

	"github.com/wikid/wikid/internal/note"
)

// mode says how a link's target is looked up.
type mode uint8

const (
	// modeName: a path from the root, else the end of a note path, a
	// title or an alias, nearest first.
	modeName mode = iota
	// modePath: exactly the note path in key.
	modePath
	// modeSelf: the linking note itself ([[#heading]]).
	modeSelf
	// modeFile: a file that is not a note: by its whole path, else by the
	// end of its path, nearest first.
	modeFile
	// modeFilePath: exactly the file in key.
	modeFilePath
)

// match says how a link found its note.
type match uint8

const (
	matchNone match = iota
	matchPath
	matchTitle
	matchAlias
)

// noteExts are the markdown extensions, lowercase.
var noteExts = note.Extensions()

// attachmentExts are the extensions of files that links name as files, not
// as notes, even without the embed mark.
var attachmentExts = map[string]bool{
	"png": true, "jpg": true, "jpeg": true, "gif": true, "bmp": true, "svg": true, "webp": true, "avif": true,
	"mp3": true, "wav": true, "m4a": true, "ogg": true, "flac": true, "3gp": true,
	"mp4": true, "webm": true, "ogv": true, "mov": true, "mkv": true,
	"pdf": true, "canvas": true,
}

// newLink returns the link l of note n with its lookup key, and false for a
// link that names neither a note nor a file.
func newLink(n *note.Note, l note.Link) (link, bool) {
	out := link{
		kind: kindOf(l.Kind), target: l.Target, line: uint32(l.Line),
		start: uint32(l.TargetStart), end: uint32(l.TargetEnd), at: uint32(l.Start),
	}
	if l.Heading != "" {
		out.extras().heading = l.Heading
	}
	dir := path.Dir(n.Path)
	switch {
	case l.Kind == note.LinkMarkdown:
		if raw := n.Raw[l.TargetStart:l.TargetEnd]; string(raw) != l.Target {
			out.extras().raw = string(raw)
		}
		if l.TargetStart > 0 && n.Raw[l.TargetStart-1] == '<' {
			out.extras().angle = true
		}
		out.mode, out.want = markdownTarget(l.Target, dir)
	case l.Target == "":
		out.mode = modeSelf
	case isFileTarget(l.Target, l.Kind == note.LinkEmbed):
		out.mode, out.want = fileTarget(l.Target, dir)
	default:
		out.mode, out.want = noteTarget(l.Target, dir)
	}
	return out, true
}

// noteTarget returns how a wiki link's target names a note from a note in
// folder dir, and what it looks up.
func noteTarget(target, dir string) (mode, string) {
	base, _ := splitNoteExt(target)
	switch {
	case strings.HasPrefix(base, "/"):
		return modePath, strings.TrimLeft(base, "/")
	case isRelative(base):
		return modePath, joinRel(dir, base)
	}
	return modeName, base
}

// fileTarget returns how a wiki link's target names a file that is not a
// note from a note in folder dir, and what it looks up.
func fileTarget(target, dir string) (mode, string) {
	switch {
	case strings.HasPrefix(target, "/"):
		return modeFilePath, strings.TrimLeft(target, "/")
	case isRelative(target):
		return modeFilePath, joinRel(dir, target)
	}
	return modeFile, target
}

// markdownTarget returns how a markdown link's target names a note or a
// file from a note in folder dir, and what it looks up: a path relative to
// dir, to a note when it has a markdown extension, else to a file.
func markdownTarget(target, dir string) (mode, string) {
	if base, ext := splitNoteExt(target); ext != "" {
		return modePath, joinRel(dir, base)
	}
	return modeFilePath, joinRel(dir, target)
}

// nameLink is a wiki link to target written in a note in folder dir.
func nameLink(target, dir string) *link {
	l := &link{kind: kindWiki, target: target}
	l.mode, l.want = noteTarget(target, dir)
	return l
}

// isRelative reports whether a target is written relative to the linking
// note's folder.
func isRelative(t string) bool {
	return strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../")
}

// joinRel joins a relative target to a folder; "" when the result leaves
// the root.
func joinRel(dir, t string) string {
	if dir == "." {
		dir = ""
	}
	p := path.Join(dir, t)
	if p == "." || p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
		return ""
	}
	return p
}

// splitNoteExt splits a markdown extension, in any case, off a target.
func splitNoteExt(t string) (base, ext string) { return note.SplitExtension(t) }

// isFileTarget reports whether a link target names a file that is not a
// note: its extension is an attachment's, or, for an embed, any extension
// of letters and digits that is not a markdown one.
func isFileTarget(t string, embed bool) bool {
	ext := path.Ext(t)
	if ext == "" || strings.Contains(ext, "/") {
		return false
	}
	e := strings.ToLower(ext[1:])
	for _, ne := range noteExts {
		if e == ne[1:] {
			return false
		}
	}
	if attachmentExts[e] {
		return true
	}
	return embed && isWordExt(e)
}

// isWordExt reports whether e looks like a file extension: one to five
// ASCII letters and digits, starting with a letter.
func isWordExt(e string) bool {
	if len(e) == 0 || len(e) > 5 || e[0] < 'a' || e[0] > 'z' {
		return false
	}
	for i := 0; i < len(e); i++ {
		if c := e[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// suffixes returns the lowercased trailing parts of a path, the whole path
// first: "a/b/c" gives "a/b/c", "b/c" and "c".
func suffixes(p string) []string {
	p = strings.ToLower(p)
	out := []string{p}
	for i := 0; i < len(p); i++ {
		if p[i] == '/' {
			out = append(out, p[i+1:])
		}
	}
	return out
}

// baseKey is the key of a path in the tables by last part: its last part,
// lowercased (sharing the path's memory when it is lowercase already).
func baseKey(p string) string {
	b := baseName(p)
	for i := 0; i < len(b); i++ {
		if c := b[i]; c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			return strings.ToLower(b)
		}
	}
	return b
}

// pathHas reports whether a path, lowercased, is key (a lowercased
// path), or with suffix true, ends with key after a '/'.
func pathHas(p, key string, suffix bool) bool {
	for i := 0; i < len(p); i++ {
		if p[i] >= utf8.RuneSelf {
			lp := strings.ToLower(p)
			return lp == key || suffix && strings.HasSuffix(lp, "/"+key)
		}
	}
	if len(p) < len(key) {
		return false
	}
	rest := len(p) - len(key)
	for i := 0; i < len(key); i++ {
		c := p[rest+i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != key[i] {
			return false
		}
	}
	return rest == 0 || suffix && p[rest-1] == '/'
}

// keys returns every lookup key under which a note can be found.
func (n *node) keys() []string {
	ks := suffixes(n.path)
	ks = append(ks, strings.ToLower(n.title))
	for _, a := range n.aliases {
		ks = append(ks, strings.ToLower(a))
	}
	return ks
}

// folderOf returns the folder of a path, "" at the root.
func folderOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

// baseName returns the last segment of a path.
func baseName(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

// segments counts the segments of a path.
func segments(p string) int {
	if p == "" {
		return 0
	}
	return strings.Count(p, "/") + 1
}

// under reports whether a path is inside folder ("" is the root).
func under(p, folder string) bool {
	return folder == "" || strings.HasPrefix(p, folder+"/")
}
