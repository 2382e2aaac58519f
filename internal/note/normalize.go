package note

import (
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
