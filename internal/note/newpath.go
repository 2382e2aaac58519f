package note

import (
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/wikid/wikid/internal/wikierr"
)

// foreignExts are the file extensions, lowercase and without the dot, that
// name a file of another kind than a note: attachments and documents that
// Obsidian and other editors open (images, audio, video, PDF, canvases,
// bases), office documents, plain text and data formats, archives, and
// scripts. A new note whose name would end in one of them is refused by
// CheckNewPath. The list leaves out what is common at the end of a real
// name: web domains and products ("example.org", "Node.js", "Socket.io",
// "ASP.NET", "Character.ai"), and version or date numbers ("v1.2",
// "2024.01.05"), whose last part holds no letter anyway, and words that
// name things as often as files ("React.conf", "Drawing.excalidraw", which
// the Excalidraw plugin stores as "Drawing.excalidraw.md" anyway).
var foreignExts = map[string]bool{}

func init() {
	for _, e := range strings.Fields(`
		png jpg jpeg gif bmp svg webp avif heic heif tif tiff ico
		mp3 wav m4a ogg oga opus flac aac 3gp
		mp4 webm mkv mov ogv avi m4v
		pdf canvas base epub
		txt rtf doc docx odt xls xlsx ods ppt pptx odp
		csv tsv json jsonl yaml yml toml xml ini cfg html htm css
		zip tar gz tgz bz2 xz 7z rar
		sh bash zsh ps1 bat py ipynb sql exe dll`) {
		foreignExts[e] = true
	}
}

// CheckNewPath checks that a note may be created at notePath, with ext the
// markdown extension given (both as CleanPath returns them, notePath then
// put in normal form by Normalize). CleanPath accepts every note path that
// existing notes may have; these rules apply only to a note that does not
// exist yet, so that an existing note keeps working under its name:
//   - a path holding U+FFFD, the replacement character, is refused: a
//     decoder puts it where it met bytes that are not UTF-8 (JSON decoding
//     does, before the path reaches wikid), so the name is not the one the
//     caller meant;
//   - the path must pass CleanPath as it is, and be in Unicode
//     normalization form C (see Normalize);
//   - every segment must be a name that Windows and macOS can check out,
//     and that looks like no other name: no character Windows refuses
//     (< > : " | ? *; a first segment "C:x" is a drive there), no Windows
//     device name (CON, PRN, AUX, NUL, COM0 to COM9, LPT0 to LPT9, CONIN$,
//     CONOUT$, in any case and with any extension: "con.md", "Nul.txt"),
//     no invisible format character (a byte order mark, the bidirectional
//     controls U+202A to U+202E and U+2066 to U+2069, a zero width space,
//     ...; the joiners U+200C and U+200D that scripts and emoji need are
//     allowed), and no name that begins or ends with whitespace or ends with
//     a dot (Windows drops trailing dots and spaces, so the note could not
//     be checked out there, and a name that ends in whitespace is lost when
//     a path is trimmed). CleanPath already refuses control characters;
//   - a path without a markdown extension whose last segment ends in the
//     extension of another kind of file (".txt", ".pdf", ".png", ".json",
//     ".canvas", ...; see foreignExts) is refused: notes are markdown files,
//     and "misc/notes.txt" would silently become "misc/notes.txt.md". Dots
//     elsewhere stay part of the name: "v1.2 release", "2024.01.05" and
//     "Node.js" are notes. Giving the markdown extension ("notes.txt.md")
//     creates the note "notes.txt".
//
// Errors are *Error with CodeInvalidPath, saying which rule was broken.
func CheckNewPath(notePath, ext string) error {
	if err := checkNewName(notePath, FileName(notePath, ext)); err != nil {
		return err
	}
	if p, e, err := CleanPath(FileName(notePath, ext)); err != nil {
		return err
	} else if p != notePath || (ext != "" && e != ext) {
		return pathErr("path %q is not in clean form (%q)", notePath, p)
	}
	if ext != "" {
		return nil
	}
	if e := foreignExt(notePath); e != "" {
		base := notePath[:len(notePath)-len(e)]
		return wikierr.Errorf(wikierr.CodeInvalidPath, "path %q ends in %s, which is not a markdown extension", notePath, e).
			WithHint("notes are markdown files: use %s or %s.md (or %s.md to keep %s in the note's name)",
				base, base, notePath, e)
	}
	return nil
}

// CheckNewFolder is CheckNewPath for a folder that notes move to: folder,
// as CleanFolder returns it and in normal form, must hold no U+FFFD, be in
// normalization form C, and have segments that every machine can check
// out. The root ("") passes. Errors are *Error with CodeInvalidPath.
func CheckNewFolder(folder string) error {
	if folder == "" {
		return nil
	}
	if err := checkNewName(folder, folder); err != nil {
		return err
	}
	if f, err := CleanFolder(folder); err != nil {
		return err
	} else if f != folder {
		return pathErr("folder %q is not in clean form (%q)", folder, f)
	}
	return nil
}

// checkNewName applies the rules of a new name that CleanPath and
// CleanFolder leave out to p, a note path or folder, whose file (or
// folder) is file.
func checkNewName(p, file string) error {
	if strings.ContainsRune(p, '\uFFFD') {
		return wikierr.Errorf(wikierr.CodeInvalidPath, "path %q holds U+FFFD, the character that replaces bytes that were not valid UTF-8", p).
			WithHint("send the path as valid UTF-8; no note was created")
	}
	if !norm.NFC.IsNormalString(p) {
		return pathErr("path %q is not in Unicode normalization form C", p).
			WithHint("write the name with composed accents (Unicode normalization form C)")
	}
	if err := checkEnds(p); err != nil {
		return err
	}
	return checkPortable(p, file)
}

// foreignExt returns the extension, with its dot and as written, that ends
// the last segment of notePath when it is one of foreignExts, and "".
func foreignExt(notePath string) string {
	name := notePath[strings.LastIndexByte(notePath, '/')+1:]
	i := strings.LastIndexByte(name, '.')
	if i <= 0 || !foreignExts[strings.ToLower(name[i+1:])] {
		return ""
	}
	return name[i:]
}
