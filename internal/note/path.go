package note

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wikid/wikid/internal/wikierr"
)

// Limits on the length of a note's file name, in bytes. They are the usual
// file system limits, so that every accepted note can be checked out anywhere.
const (
	MaxSegmentBytes = 255
	MaxPathBytes    = 1024
)

// markdownExts are the file extensions of notes, lowercase. ".md" is the one
// written for a new note.
var markdownExts = []string{".md", ".markdown", ".mdx"}

// CleanPath validates and normalizes a note path given by a caller. It
// returns the note path without extension and the markdown extension given
// (".md", ".markdown" or ".mdx", as written, so ".MD" stays ".MD"), or ""
// when none was given.
//
// The rules, in the order they are checked:
//   - surrounding whitespace is trimmed; an empty path is an error;
//   - the path must be valid UTF-8 without control characters (NUL included);
//   - folders are separated by '/' only: a backslash is an error;
//   - the path is relative: "/x" and Windows paths like "C:/x" are errors.
//     "C:x" and "a:b" are names holding a colon, which git allows and an
//     existing note may have; CheckNewPath refuses them for a new note;
//   - one leading "./" is dropped; a trailing '/' is an error (that names a folder);
//   - a trailing ".md", ".markdown" or ".mdx", in any case, is removed and
//     returned as ext; a name ending in two of them ("a.md.md") is an error.
//     Any other extension is part of the name: "notes/v1.2" is the file
//     "notes/v1.2.md" and "diagram.png" is the note "diagram.png.md";
//   - no segment may be empty ("a//b"), be "..", start with a dot (this keeps
//     out ".git", ".obsidian", ".trash" and ".wikid.yaml"), or name the .git
//     folder in any other way a file system could read it: ".GIT", ".git"
//     with code points HFS+ ignores ("\u200c.git"), or the NTFS short name
//     "git~1";
//   - the note's file (note path plus extension, ".md" when none was given)
//     is at most MaxPathBytes long and each of its segments at most
//     MaxSegmentBytes.
//
// Characters that Windows forbids in names (':', '?', '*', ...), device
// names such as "CON", invisible format characters, names in any Unicode
// normalization form, and names that begin or end with whitespace or end
// with a dot are allowed, as git allows them, so that existing notes keep
// working; CheckNewPath refuses them for a new note. Since the path as a
// whole is trimmed, a name ending in whitespace is reached with what
// follows it: "notes /plan" for a folder "notes ", "draft .md" for a note
// "draft ", "notes /" for the folder itself (see CleanFolder).
// Errors are *Error with CodeInvalidPath saying which rule was broken.
func CleanPath(p string) (notePath, ext string, err error) {
	rel, err := cleanCommon(p)
	if err != nil {
		return "", "", err
	}
	if rel == "" {
		return "", "", pathErr("path %q names no note", p).
			WithHint("Give a note path such as projects/alpha/plan.")
	}
	if strings.HasSuffix(rel, "/") {
		return "", "", pathErr("path %q ends with a slash: it names a folder, not a note", p).
			WithHint("Remove the trailing slash, or use a folder parameter.")
	}
	notePath, ext = splitMarkdownExt(rel)
	if _, again := splitMarkdownExt(notePath); again != "" {
		return "", "", pathErr("path %q ends with two markdown extensions", p).
			WithHint("Give the note path once, without extension or with one of %s.", strings.Join(markdownExts, ", "))
	}
	if err := checkSegments(p, notePath, len(FileName("", ext))); err != nil {
		return "", "", err
	}
	return notePath, ext, nil
}

// CleanFolder is CleanPath for a folder: "", ".", "./" and "/" mean the root
// and return "", one trailing '/' is dropped, and there is no extension
// handling, so "a.md" is a folder named "a.md". The other rules are the same,
// with the length limits applied to the folder path itself. Errors are
// *Error with CodeInvalidPath.
func CleanFolder(p string) (string, error) {
	switch strings.TrimSpace(p) {
	case "", ".", "./", "/":
		return "", nil
	}
	rel, err := cleanCommon(p)
	if err != nil {
		return "", err
	}
	rel = strings.TrimSuffix(rel, "/")
	if err := checkSegments(p, rel, 0); err != nil {
		return "", err
	}
	return rel, nil
}

// FileName returns the file for a note path: notePath + ext, with ".md" when
// ext is "".
func FileName(notePath, ext string) string {
	if ext == "" {
		ext = ".md"
	}
	return notePath + ext
}

// SplitFileName returns the note path and extension of a repository file, and
// false when the file is not a markdown note: it has no markdown extension,
// or it breaks a path rule of CleanPath (files under ".obsidian/" for
// instance), or its name is not already in clean form.
func SplitFileName(file string) (notePath, ext string, ok bool) {
	notePath, ext, err := CleanPath(file)
	if err != nil || ext == "" || notePath+ext != file {
		return "", "", false
	}
	return notePath, ext, true
}

// IsMarkdown reports whether a file name has a markdown extension: ".md",
// ".markdown" or ".mdx", in any case. A name that is only the extension
// (".md", "notes/.md") has none: it is a hidden file.
func IsMarkdown(name string) bool {
	_, ext := splitMarkdownExt(name)
	return ext != ""
}

// cleanCommon applies the rules shared by note paths and folders, up to the
// segment checks, and returns the trimmed path without a leading "./".
func cleanCommon(p string) (string, error) {
	rel := strings.TrimSpace(p)
	if rel == "" {
		return "", pathErr("path is empty").
			WithHint("Give a path relative to the wiki root, such as projects/alpha/plan.")
	}
	if !utf8.ValidString(rel) {
		return "", pathErr("path %q is not valid UTF-8", p)
	}
	for _, r := range rel {
		if unicode.IsControl(r) {
			return "", pathErr("path %q contains control character %U", p, r)
		}
	}
	if isDrivePath(rel) || isDrivePath(strings.TrimPrefix(rel, "./")) {
		return "", pathErr("path %q is an absolute Windows path", p).
			WithHint("Give the path relative to the wiki root, such as projects/alpha/plan.")
	}
	if strings.ContainsRune(rel, '\\') {
		return "", pathErr("path %q contains a backslash", p).
			WithHint("Separate folders with /, as in projects/alpha/plan.")
	}
	if rel[0] == '/' {
		return "", pathErr("path %q is absolute", p).
			WithHint("Give the path relative to the wiki root, such as projects/alpha/plan.")
	}
	return strings.TrimPrefix(rel, "./"), nil
}

// checkSegments checks each segment of rel, a note path or folder without a
// trailing slash. extLen is the length of the extension the file will have;
// it counts towards the length limits of the last segment and the path.
func checkSegments(p, rel string, extLen int) error {
	if n := len(rel) + extLen; n > MaxPathBytes {
		return pathErr("path is %d bytes long; the limit is %d", n, MaxPathBytes)
	}
	segs := strings.Split(rel, "/")
	for i, seg := range segs {
		switch {
		case seg == "":
			return pathErr("path %q has an empty segment", p).
				WithHint("Remove the doubled slash.")
		case isDotGit(seg):
			return pathErr("path %q is inside .git", p)
		case seg == "..":
			return pathErr("path %q contains a .. segment", p).
				WithHint("Give the path relative to the wiki root without .., such as projects/alpha/plan.")
		case seg[0] == '.':
			return pathErr("path %q has a segment starting with a dot: %q", p, seg).
				WithHint("Names starting with a dot are hidden files, not notes.")
		}
		n := len(seg)
		if i == len(segs)-1 {
			n += extLen
		}
		if n > MaxSegmentBytes {
			return pathErr("path %q has a segment of %d bytes; the limit is %d", p, n, MaxSegmentBytes)
		}
	}
	return nil
}

// isDotGit reports whether a segment names the .git folder on some file
// system: ".git" in any case, also with the code points HFS+ ignores, or its
// NTFS short name "git~1", also with a stream suffix ("git~1:$DATA").
func isDotGit(seg string) bool {
	name := strings.ToLower(strings.Map(func(r rune) rune {
		if hfsIgnorable(r) {
			return -1
		}
		return r
	}, seg))
	return name == ".git" || name == "git~1" || strings.HasPrefix(name, "git~1:")
}

// hfsIgnorable reports whether HFS+ ignores r when it compares names, the
// list git itself checks (see is_hfs_dotgit in git's utf8.c).
func hfsIgnorable(r rune) bool {
	switch {
	case 0x200c <= r && r <= 0x200f, 0x202a <= r && r <= 0x202e,
		0x206a <= r && r <= 0x206f, r == 0xfeff:
		return true
	}
	return false
}

// splitMarkdownExt splits a markdown extension, in any case, off the last
// segment of name. A segment that is only an extension (".md") has none.
func splitMarkdownExt(name string) (base, ext string) { return SplitExtension(name) }

// Extensions returns the file extensions of notes, lowercase, in the order
// a path without extension tries them: ".md", ".markdown", ".mdx". It is
// the one list every package uses.
func Extensions() []string { return slices.Clone(markdownExts) }

// SplitExtension splits a markdown extension, in any case, off a file
// name or link target: "Plan.MD" is "Plan" and ".MD". A name that is only
// the extension (".md", "notes/.md") has none.
func SplitExtension(name string) (base, ext string) {
	for _, e := range markdownExts {
		n := len(name) - len(e)
		if n > 0 && name[n-1] != '/' && strings.EqualFold(name[n:], e) {
			return name[:n], name[n:]
		}
	}
	return name, ""
}

// hasDriveLetter reports whether p starts like a Windows drive path: "C:".
func hasDriveLetter(p string) bool {
	return len(p) >= 2 && p[1] == ':' &&
		('a' <= p[0] && p[0] <= 'z' || 'A' <= p[0] && p[0] <= 'Z')
}

// isDrivePath reports whether p is an absolute Windows path: a drive and a
// separator, "C:/" or "C:\\". "C:x" is none: Windows reads it as x in
// the current folder of drive C:, git and every other system as a name
// holding a colon, which existing notes may have (see CheckNewPath for
// new ones).
func isDrivePath(p string) bool {
	return hasDriveLetter(p) && len(p) > 2 && (p[2] == '/' || p[2] == '\\')
}

// pathErr returns an INVALID_PATH error with a general hint; callers with
// a more precise one replace it.
func pathErr(format string, args ...any) *wikierr.Error {
	return wikierr.Errorf(wikierr.CodeInvalidPath, format, args...).
		WithHint("Give a path relative to the wiki root, such as projects/alpha/plan: no .., no hidden (dot) segments, nothing under .git.")
}
