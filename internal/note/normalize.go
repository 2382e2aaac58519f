package note

import (
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// A name such as "café" can be written in two ways that every reader sees
// as one: with the precomposed "é" (U+00E9, Unicode normalization form C,
// what keyboards type) or with "e" and a combining acute accent (U+0065
// U+0301, form D, what macOS's HFS+ stored and what some tools still
// commit). Git compares bytes, so it keeps both as two files; macOS keeps
// one of them on disk. wikid therefore names every new note in form C (see
// Normalize and CheckNewPath), and finds an existing note whichever form a
// caller gives (see NameKey); an existing note keeps the form it has.

// Normalize returns p in Unicode normalization form C, the form every new
// note's path is written in. It does not check p: callers normalize what
// CleanPath returned, then check the result with CheckNewPath, since the
// normal form may be longer than p.
func Normalize(p string) string { return norm.NFC.String(p) }

// NameKey returns the key under which two note paths or folders name the
// same note on some file system: p in normalization form C, each letter
// upper-cased and then lower-cased. Two paths with the same key differ only
// in case (which Windows and macOS ignore) or in how their accents are
// encoded (which macOS ignores). Windows compares names by upper-casing
// each letter, so letters with one capital but several small forms (σ and
// final ς, s and long ſ) name one file there: they go up first.
func NameKey(p string) string {
	return strings.Map(func(r rune) rune { return unicode.ToLower(unicode.ToUpper(r)) }, norm.NFC.String(p))
}

// Spellings returns the spellings of p, a note path or folder, that name
// the same file on macOS: p itself first, then p with each of its segments
// in normalization form C or D, for up to four segments that differ in the
// two forms (the rest kept as p has them). A path that git holds with its
// folder committed from macOS (form D) and its name typed (form C) is one
// of them. There are at most 17; a path whose forms agree has only itself.
func Spellings(p string) []string {
	out := []string{p}
	if norm.NFC.IsNormalString(p) && norm.NFD.IsNormalString(p) {
		return out
	}
	segs := strings.Split(p, "/")
	var vary []int
	for i, seg := range segs {
		if len(vary) < 4 && norm.NFC.String(seg) != norm.NFD.String(seg) {
			vary = append(vary, i)
		}
	}
	for bits := range 1 << len(vary) {
		parts := slices.Clone(segs)
		for j, i := range vary {
			if bits&(1<<j) == 0 {
				parts[i] = norm.NFC.String(parts[i])
			} else {
				parts[i] = norm.NFD.String(parts[i])
			}
		}
		if s := strings.Join(parts, "/"); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
